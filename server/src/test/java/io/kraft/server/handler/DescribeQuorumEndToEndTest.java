package io.kraft.server.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DescribeQuorum through a broker, as kafka-clients' Admin (and kafka-metadata-quorum.sh) asks it. */
class DescribeQuorumEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void aBrokerDescribesTheMetadataQuorumItFollows() throws Exception {
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            node.createTopic("orders", 1, Map.of());
            QuorumInfo quorum = node.admin().describeMetadataQuorum().quorumInfo()
                    .get(TestNode.WAIT_MS, TimeUnit.MILLISECONDS);
            assertEquals(1, quorum.leaderId());
            assertTrue(quorum.leaderEpoch() >= 1, quorum.toString());
            assertTrue(quorum.highWatermark() > 0, quorum.toString());
            assertEquals(1, quorum.voters().size(), quorum.toString());
            assertEquals(1, quorum.voters().get(0).replicaId());
            // A static voter (controller.quorum.voters) has no directory id in the voter set: Kafka's zero uuid.
            assertEquals(org.apache.kafka.common.Uuid.ZERO_UUID, quorum.voters().get(0).replicaDirectoryId());
            assertTrue(quorum.voters().get(0).logEndOffset() >= quorum.highWatermark(), quorum.toString());
            assertEquals(1, quorum.nodes().size(), quorum.toString());
            assertEquals(node.controllerPort(), quorum.nodes().get(1).endpoints().get(0).port());
        }
    }
}
