package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.ConfigResourceType;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A topic's settings follow the image they are asked in, and are resolved once per image and topic. */
class TopicConfigUpdatesTest {
    private static final TopicConfigResolver RESOLVER = new TopicConfigResolver(BrokerLogSettings.from(
            LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));

    private MetadataImage image = MetadataImage.EMPTY;
    private final AtomicInteger resolutions = new AtomicInteger();
    private final TopicConfigUpdates updates = new TopicConfigUpdates(1, current -> {
        resolutions.incrementAndGet();
        return RESOLVER;
    }, new HashMap<>(), () -> image);

    private void setRetention(String topic, String retentionMs) {
        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(MetadataRecords.of(ConfigRecord.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC).setResourceName(topic)
                .setName("retention.ms").setValue(retentionMs).build()), image.offset() + 1, 1);
        image = delta.apply();
    }

    @Test
    void aNewImageIsResolvedAgain() {
        setRetention("a", "1000");
        assertEquals(1000, updates.logConfig("a").retentionMs());
        setRetention("a", "2000");
        assertEquals(2000, updates.logConfig("a").retentionMs());
        assertEquals(2000, updates.topicSettings("a").retentionMs());
    }

    @Test
    void theSameTopicInTheSameImageIsResolvedOnce() {
        setRetention("a", "1000");
        setRetention("b", "3000");
        assertSame(updates.logConfig("a"), updates.logConfig("a"));
        updates.topicSettings("a");
        assertEquals(1, resolutions.get());
        assertEquals(3000, updates.logConfig("b").retentionMs(), "another topic");
        assertEquals(1000, updates.logConfig("a").retentionMs());
        assertEquals(3, resolutions.get());
    }
}
