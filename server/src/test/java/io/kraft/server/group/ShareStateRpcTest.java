package io.kraft.server.group;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.group.share.RecordState;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.group.share.state.RemoteShareState;
import io.kraft.broker.group.share.state.ShareCoordinatorConfig;
import io.kraft.broker.group.share.state.ShareStateCoordinator;
import io.kraft.broker.group.share.state.ShareStatePersister.ReadResult;
import io.kraft.broker.network.InterBrokerSecurity;
import io.kraft.server.TestNode;
import io.kraft.storage.errors.Errors;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WriteShareGroupState and ReadShareGroupState over the wire, as a data partition's leader on another broker sends
 * them: a write is read back, an older leader epoch is fenced, and the state survives a restart of the coordinator.
 */
class ShareStateRpcTest {

    @Test
    void writtenStateIsReadBackOverTheWireAndAfterARestart(@TempDir Path dir) throws Exception {
        try (TestNode node = new TestNode(dir, Map.of(ShareCoordinatorConfig.STATE_TOPIC_NUM_PARTITIONS, "1")).start()) {
            node.admin().createTopics(List.of(new NewTopic(ShareStateCoordinator.TOPIC, 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
            SharePartitionKey key = new SharePartitionKey("g", new UUID(4, 2), 0);
            SharePartition.Snapshot state = new SharePartition.Snapshot(5, List.of(
                    new SharePartition.StateRange(5, 7, RecordState.AVAILABLE, 2),
                    new SharePartition.StateRange(8, 8, RecordState.ARCHIVED, 5),
                    new SharePartition.StateRange(9, 9, RecordState.ACKNOWLEDGED, 1)));
            try (RemoteShareState remote = remote(node)) {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(
                        () -> remote.write(1, key, 3, state).get() == Errors.NONE);
                assertEquals(new ReadResult(Errors.NONE, state), remote.read(1, key, 3).get());
                assertEquals(Errors.FENCED_LEADER_EPOCH, remote.write(1, key, 2, state).get());
                assertEquals(new ReadResult(Errors.NONE, null),
                        remote.read(1, new SharePartitionKey("other", new UUID(4, 2), 0), 0).get());
            }
            node.restart();
            try (RemoteShareState remote = remote(node)) {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(
                        () -> remote.read(1, key, 4).get().error() == Errors.NONE);
                assertEquals(new ReadResult(Errors.NONE, state), remote.read(1, key, 4).get());
            }
        }
    }

    private static RemoteShareState remote(TestNode node) {
        return new RemoteShareState(99, id -> Optional.of(new InetSocketAddress("localhost", node.port())),
                InterBrokerSecurity.PLAINTEXT, 5_000);
    }
}
