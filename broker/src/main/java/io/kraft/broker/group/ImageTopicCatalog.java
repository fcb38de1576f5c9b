package io.kraft.broker.group;

import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.broker.group.consumer.TopicInfo;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/** The topics of the broker's current metadata image, as consumer-protocol groups see them. */
public final class ImageTopicCatalog implements TopicCatalog {
    private final Supplier<MetadataImage> images;

    public ImageTopicCatalog(Supplier<MetadataImage> images) {
        this.images = images;
    }

    @Override
    public TopicInfo byName(String name) {
        TopicImage topic = images.get().topics().topic(name);
        return topic == null ? null : new TopicInfo(topic.id(), topic.name(), topic.partitions().size());
    }

    @Override
    public Collection<TopicInfo> all() {
        List<TopicInfo> out = new ArrayList<>();
        images.get().topics().topicsByName().values().forEach(
                topic -> out.add(new TopicInfo(topic.id(), topic.name(), topic.partitions().size())));
        return out;
    }
}
