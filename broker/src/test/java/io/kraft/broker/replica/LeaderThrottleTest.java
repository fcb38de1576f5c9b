package io.kraft.broker.replica;

import static io.kraft.broker.replica.ReplicatedLeaderHarness.LEADER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.fetch.PartitionRead;
import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.broker.quota.ReplicationQuotaConfig;
import io.kraft.metadata.MetadataRecords;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.ConfigResourceType;
import io.kraft.storage.errors.Errors;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leader's side of replication throttles (KIP-73): broker 3, outside the ISR and listed in the topic's
 * leader.replication.throttled.replicas as led from this broker, reads no records while the leader's throttled rate
 * is over its bound; an ISR member, or any follower once the list is gone, reads as usual.
 */
class LeaderThrottleTest {
    private static final int IN_SYNC = 2;
    private static final int CATCHING_UP = 3;

    @TempDir
    Path logDir;

    private ReplicatedLeaderHarness harness;

    @BeforeEach
    void leaderWithRecords() throws Exception {
        harness = new ReplicatedLeaderHarness(logDir, List.of(LEADER, IN_SYNC));
        harness.append(20);
    }

    @AfterEach
    void close() {
        harness.close();
    }

    private void config(ConfigResourceType type, String resource, String key, String value) {
        ConfigRecord.Builder record = ConfigRecord.newBuilder().setResourceType(type).setResourceName(resource)
                .setName(key);
        if (value != null) {
            record.setValue(value);
        }
        harness.publish(List.of(MetadataRecords.of(record.build())));
    }

    @Test
    void aThrottledFollowerOutsideTheIsrReadsNothingWhileTheRateIsExceeded() throws Exception {
        ReplicationQuota quota = harness.replicaManager.throttles().leader();
        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER, String.valueOf(LEADER),
                ReplicationQuotaConfig.LEADER_RATE, "1000");
        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "t", "leader.replication.throttled.replicas",
                "0:" + LEADER);

        PartitionRead first = harness.followerFetch(CATCHING_UP, 1, 0, -1);
        assertTrue(first.sizeBytes() > 0, "under the rate, the copy goes on");
        assertEquals(first.sizeBytes(), quota.bytes(), "the throttled bytes are counted");

        quota.record(1_000_000); // far over 1000 bytes/s
        PartitionRead held = harness.followerFetch(CATCHING_UP, 1, 0, -1);
        assertEquals(Errors.NONE, held.error());
        assertEquals(0, held.sizeBytes());
        assertEquals(1, quota.heldBackCount());

        assertTrue(harness.followerFetch(IN_SYNC, 1, 0, -1).sizeBytes() > 0, "an ISR member is never throttled");

        config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "t", "leader.replication.throttled.replicas", null);
        assertTrue(harness.followerFetch(CATCHING_UP, 1, 0, -1).sizeBytes() > 0, "no longer listed");
    }
}
