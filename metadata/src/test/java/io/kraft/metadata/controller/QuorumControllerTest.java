package io.kraft.metadata.controller;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.store.RocksDbMetadataStorage;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.RaftConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.raft.grpc.GrpcRaftTransport;
import io.kraft.storage.errors.Errors;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three quorum controllers in one JVM over gRPC loopback, with file logs and RocksDB state in a temp dir. */
class QuorumControllerTest {
    private static final long TICK_MS = 10;
    private static final Duration WAIT = Duration.ofSeconds(30);
    // Sessions outlast the test, so brokers that stop heartbeating during a failover stay unfenced.
    private static final ControllerSettings SETTINGS =
            new ControllerSettings(ControllerTestEnv.CLUSTER_ID, 120_000, 1_000, false, 1, 1);

    @TempDir
    Path dir;

    private final Map<Integer, Node> nodes = new TreeMap<>();
    private final RecordingFaultHandler faults = new RecordingFaultHandler();
    private QuorumConfig quorum;

    record Node(QuorumController controller, RaftDriver driver, FileRaftLog log, FileSnapshotStore snapshots,
                AtomicReference<MetadataImage> published) {
    }

    @AfterEach
    void stopAll() {
        for (int id : List.copyOf(nodes.keySet())) {
            stop(id);
        }
        assertEquals(List.of(), faults.faults());
    }

    private void startQuorum(SnapshotPolicy policy) throws IOException {
        String voters = "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort();
        quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, voters,
                QuorumConfig.ELECTION_TIMEOUT_MS, "500", QuorumConfig.FETCH_TIMEOUT_MS, "1000",
                QuorumConfig.ELECTION_BACKOFF_MAX_MS, "300", QuorumConfig.REQUEST_TIMEOUT_MS, "800"));
        for (int id = 1; id <= 3; id++) {
            start(id, policy);
        }
    }

    private Node start(int nodeId, SnapshotPolicy policy) {
        Path nodeDir = dir.resolve("node-" + nodeId);
        FileSnapshotStore snapshots = FileSnapshotStore.open(nodeDir);
        FileRaftLog log = FileRaftLog.open(nodeDir, 64 * 1024);
        QuorumController controller = QuorumController.builder(nodeId, SETTINGS)
                .topicConfigs(ControllerTestEnv.topicConfigResolver())
                .supportedFeatures(ControllerTestEnv.FEATURES)
                .storage(new RocksDbMetadataStorage(nodeDir.resolve("state"), snapshots))
                .snapshotPolicy(policy)
                .faultHandler(faults)
                .build();
        AtomicReference<MetadataImage> published = new AtomicReference<>(MetadataImage.EMPTY);
        controller.register((delta, image) -> published.set(image));
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, ControllerTestEnv.CLUSTER_ID, quorum.voters(),
                quorum.voters().get(nodeId).getPort(), quorum.requestTimeoutMs());
        RaftConfig config = quorum.raftConfig(nodeId, TICK_MS, 500);
        RaftDriver driver = new RaftDriver(config, TICK_MS, log, snapshots,
                new MetadataLogRetention(log, 1, -1, System::currentTimeMillis),
                new FileQuorumStateStore(nodeDir), transport, controller, nodeId);
        controller.start(driver);
        driver.start();
        Node node = new Node(controller, driver, log, snapshots, published);
        nodes.put(nodeId, node);
        return node;
    }

    private void stop(int nodeId) {
        Node node = nodes.remove(nodeId);
        node.driver().close();
        node.controller().close();
        node.log().close();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Runs a request on whichever controller is active, retrying while none is (NOT_CONTROLLER). */
    private <T> T onActive(Function<QuorumController, CompletableFuture<T>> request) {
        AtomicReference<T> answer = new AtomicReference<>();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
            for (Node node : nodes.values()) {
                try {
                    answer.set(request.apply(node.controller()).get(10, TimeUnit.SECONDS));
                    return true;
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof ControllerException ce) || ce.error() != Errors.NOT_CONTROLLER) {
                        throw e;
                    }
                }
            }
            return false;
        });
        return answer.get();
    }

    /** The id of the active controller, once one serves. */
    private int activeId() {
        AtomicReference<Integer> active = new AtomicReference<>();
        await().atMost(WAIT).until(() -> {
            for (Map.Entry<Integer, Node> e : nodes.entrySet()) {
                if (isActive(e.getValue().controller())) {
                    active.set(e.getKey());
                    return true;
                }
            }
            return false;
        });
        return active.get();
    }

    private static boolean isActive(QuorumController controller) {
        try {
            controller.deleteTopic("no-such-topic").get(10, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException e) {
            return !(e.getCause() instanceof ControllerException ce) || ce.error() != Errors.NOT_CONTROLLER;
        } catch (Exception e) {
            return false;
        }
    }

    /** Registers and unfences a broker through the active controller. */
    private void startBroker(int brokerId) {
        long epoch = onActive(c -> c.registerBroker(ControllerTestEnv.registration(brokerId, null)));
        await().atMost(WAIT).until(() -> {
            long caughtUpTo = nodes.values().stream().mapToLong(n -> n.controller().image().offset()).max().orElseThrow();
            BrokerHeartbeatReply reply = onActive(c ->
                    c.heartbeat(new BrokerHeartbeatRequest(brokerId, epoch, caughtUpTo, false, false)));
            return !reply.isFenced();
        });
    }

    private void awaitSameImages() {
        await().atMost(WAIT).until(() -> nodes.values().stream().map(n -> n.published().get()).distinct().count() == 1
                && nodes.values().stream().allMatch(n -> n.published().get().equals(n.controller().image())));
    }

    @Test
    void servesOnTheLeaderAgreesOnImagesAndFailsOver() throws Exception {
        startQuorum(new SnapshotPolicy(SnapshotPolicy.DEFAULT_MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS,
                SnapshotPolicy.DEFAULT_MAX_SNAPSHOT_INTERVAL_MS));
        startBroker(1);
        startBroker(2);
        CreateTopicResult created = onActive(c -> c.createTopic(CreateTopicRequest.of("orders", 3, 2)));
        assertEquals(3, created.numPartitions());

        awaitSameImages();
        for (Node node : nodes.values()) {
            MetadataImage image = node.published().get();
            assertEquals(created.topicId(), image.topics().topic("orders").id());
            assertEquals(2, image.cluster().brokers().size());
        }

        int leaderId = activeId();
        for (Map.Entry<Integer, Node> e : nodes.entrySet()) {
            if (e.getKey() != leaderId) {
                ExecutionException error = assertThrows(ExecutionException.class, () -> e.getValue().controller()
                        .createTopic(CreateTopicRequest.of("refused", 1, 1)).get(10, TimeUnit.SECONDS));
                assertEquals(Errors.NOT_CONTROLLER, ((ControllerException) error.getCause()).error());
            }
        }

        stop(leaderId);
        int newLeaderId = activeId();
        assertNotEquals(leaderId, newLeaderId);
        assertEquals(created.topicId(), nodes.get(newLeaderId).controller().image().topics().topic("orders").id());
        ExecutionException duplicate = assertThrows(ExecutionException.class, () -> nodes.get(newLeaderId).controller()
                .createTopic(CreateTopicRequest.of("orders", 1, 1)).get(10, TimeUnit.SECONDS));
        assertEquals(Errors.TOPIC_ALREADY_EXISTS, ((ControllerException) duplicate.getCause()).error());
        onActive(c -> c.createTopic(CreateTopicRequest.of("payments", 2, 2)));
        awaitSameImages();
        assertNotNull(nodes.get(newLeaderId).published().get().topics().topic("payments"));
    }

    @Test
    void restartedControllerLoadsSnapshotAndLog() throws Exception {
        // Snapshots every few KiB of records, so a restart has a snapshot and a log after it to replay.
        startQuorum(new SnapshotPolicy(2 * 1024, SnapshotPolicy.DEFAULT_MAX_SNAPSHOT_INTERVAL_MS));
        startBroker(1);
        startBroker(2);
        for (int i = 0; i < 20; i++) {
            String name = "topic-" + i;
            onActive(c -> c.createTopic(CreateTopicRequest.of(name, 4, 2)));
        }
        onActive(c -> c.incrementalAlterConfigs(ConfigResource.topic("topic-3"),
                Map.of("retention.ms", Optional.of("60000"))));
        awaitSameImages();

        int leaderId = activeId();
        int restartedId = leaderId == 1 ? 2 : 1;
        stop(restartedId);
        onActive(c -> c.createTopic(CreateTopicRequest.of("after-stop", 1, 2)));
        onActive(c -> c.deleteTopic("topic-0"));

        Node restarted = start(restartedId, new SnapshotPolicy(2 * 1024, SnapshotPolicy.DEFAULT_MAX_SNAPSHOT_INTERVAL_MS));
        assertTrue(restarted.snapshots().latest().isPresent(), "the stopped controller had saved a snapshot");
        // Retention deleted the log prefix the snapshot covers, so the image can only come from snapshot + log.
        assertTrue(restarted.log().startOffset() > 0, "log start " + restarted.log().startOffset());
        awaitSameImages();
        MetadataImage image = restarted.published().get();
        assertEquals(nodes.get(leaderId).controller().image(), image);
        assertNotNull(image.topics().topic("after-stop"));
        assertFalse(image.topics().topicsByName().containsKey("topic-0"));
        assertEquals("60000", image.configs().configs(ConfigResource.topic("topic-3")).get("retention.ms"));
    }
}
