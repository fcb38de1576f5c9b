package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.quota.QuotaWindows;
import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.broker.quota.ReplicationQuotaConfig;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.ConfigResourceType;
import io.kraft.storage.log.TopicPartition;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Replication throttles read from the metadata: this broker's rates and its entries of the topics' lists. */
class ReplicationThrottlesTest {
    private final AtomicLong nowMs = new AtomicLong(1_000_000);
    private final ReplicationThrottles throttles = new ReplicationThrottles(2, new QuotaWindows(2, 1000), nowMs::get);
    private MetadataImage image = MetadataImage.EMPTY;

    private void config(ConfigResourceType type, String resource, String key, String value) {
        MetadataDelta delta = new MetadataDelta(image);
        ConfigRecord.Builder record = ConfigRecord.newBuilder().setResourceType(type).setResourceName(resource)
                .setName(key);
        if (value != null) {
            record.setValue(value);
        }
        delta.replay(MetadataRecords.of(record.build()), image.offset() + 1, 1);
        image = delta.apply();
        throttles.apply(delta, image);
    }

    @Test
    void ratesComeFromThisBrokersOwnConfigElseTheClusterDefault() {
        assertEquals(ReplicationQuotaConfig.UNLIMITED, throttles.leader().bound());
        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER, "", ReplicationQuotaConfig.LEADER_RATE, "5000");
        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER, "3", ReplicationQuotaConfig.FOLLOWER_RATE, "7");
        assertEquals(5000, throttles.leader().bound());
        assertEquals(ReplicationQuotaConfig.UNLIMITED, throttles.follower().bound(), "broker 3's is not ours");
        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER, "2", ReplicationQuotaConfig.LEADER_RATE, "100");
        assertEquals(100, throttles.leader().bound());
        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER, "2", ReplicationQuotaConfig.LEADER_RATE, null);
        assertEquals(5000, throttles.leader().bound(), "deleted: the cluster default again");
    }

    @Test
    void theAlterLogDirsRateCanBeTakenFromAnImageNotYetPublished() {
        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(MetadataRecords.of(ConfigRecord.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER).setResourceName("2")
                .setName(ReplicationQuotaConfig.ALTER_LOG_DIRS_RATE).setValue("1000").build()), 1, 1);
        throttles.applyAlterLogDirs(delta.apply());
        assertEquals(1000, throttles.alterLogDirs().bound());
        assertEquals(ReplicationQuotaConfig.UNLIMITED, throttles.leader().bound(), "only that rate");
    }

    @Test
    void onlyThisBrokersEntriesOrAStarAreThrottled() {
        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "t", "leader.replication.throttled.replicas",
                "0:2,1:3,2:2");
        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "u", "follower.replication.throttled.replicas", "*");
        assertTrue(throttles.leader().isThrottled(new TopicPartition("t", 0)));
        assertFalse(throttles.leader().isThrottled(new TopicPartition("t", 1)));
        assertTrue(throttles.leader().isThrottled(new TopicPartition("t", 2)));
        assertFalse(throttles.leader().isThrottled(new TopicPartition("u", 0)));
        assertTrue(throttles.follower().isThrottled(new TopicPartition("u", 7)));
        assertFalse(throttles.follower().isThrottled(new TopicPartition("t", 0)));
        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "t", "leader.replication.throttled.replicas", null);
        assertFalse(throttles.leader().isThrottled(new TopicPartition("t", 0)));
    }

    @Test
    void aQuotaIsExceededOnceTheMeasuredRatePassesItsBound() {
        ReplicationQuota quota = throttles.leader();
        quota.record(10_000_000);
        assertFalse(quota.isExceeded(), "unlimited by default");
        quota.setBound(1_000);
        assertTrue(quota.isExceeded());
        nowMs.addAndGet(5_000); // both samples expired
        assertFalse(quota.isExceeded());
        quota.record(500);
        assertFalse(quota.isExceeded(), "500 bytes over at least one second");
        quota.record(2_000);
        assertTrue(quota.isExceeded());
        assertEquals(10_002_500, quota.bytes());
    }
}
