package io.kraft.metadata.loader;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.BrokerHeartbeatRequest;
import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.store.RocksDbMetadataStorage;
import io.kraft.raft.QuorumConfig;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker's metadata follower as a Raft observer of a one-voter controller quorum over gRPC loopback: it reaches
 * the controller's image from the log, from the controller's snapshot when the log prefix is gone, and from its
 * own snapshot plus log after a restart.
 */
class MetadataFollowerTest {
    private static final String CLUSTER_ID = "follower-test";
    private static final long TICK_MS = 10;
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Snapshots every few KiB of records, so both sides snapshot within a test. */
    private static final SnapshotPolicy SMALL_SNAPSHOTS = new SnapshotPolicy(2 * 1024,
            SnapshotPolicy.DEFAULT_MAX_SNAPSHOT_INTERVAL_MS);

    @TempDir
    Path dir;

    private QuorumConfig quorum;
    private QuorumController controller;
    private RaftDriver controllerDriver;
    private FileRaftLog controllerLog;
    private Observer observer;
    private final RecordingFaultHandler faults = new RecordingFaultHandler();

    /** The follower's pieces, as a broker node wires them. */
    private record Observer(MetadataFollower follower, RaftDriver driver, FileRaftLog log, FileSnapshotStore snapshots,
                            List<MetadataImage> published, List<Set<String>> createdTopicNames) {
        void close() {
            driver.close();
            follower.close();
            log.close();
        }
    }

    @AfterEach
    void stopAll() {
        if (observer != null) {
            observer.close();
        }
        if (controllerDriver != null) {
            controllerDriver.close();
            controller.close();
            controllerLog.close();
        }
        assertEquals(List.of(), faults.faults());
    }

    private void startController() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, "1@localhost:" + port,
                QuorumConfig.ELECTION_TIMEOUT_MS, "300", QuorumConfig.FETCH_TIMEOUT_MS, "600"));
        Path nodeDir = dir.resolve("controller");
        FileSnapshotStore snapshots = FileSnapshotStore.open(nodeDir);
        controllerLog = FileRaftLog.open(nodeDir, 16 * 1024);
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        controller = QuorumController.builder(1, ControllerSettings.defaults(CLUSTER_ID))
                .topicConfigs(topicConfigs)
                .supportedFeatures(Map.of("metadata.version", new SupportedRange(1, 3)))
                .storage(new RocksDbMetadataStorage(nodeDir.resolve("state"), snapshots))
                .snapshotPolicy(SMALL_SNAPSHOTS)
                .faultHandler(faults)
                .build();
        controllerDriver = new RaftDriver(quorum.raftConfig(1, TICK_MS, 500), TICK_MS, controllerLog, snapshots,
                new MetadataLogRetention(controllerLog, 1, -1, System::currentTimeMillis),
                new FileQuorumStateStore(nodeDir), new GrpcRaftTransport(1, CLUSTER_ID, quorum.voters(), port,
                quorum.requestTimeoutMs()), controller, 1);
        controller.start(controllerDriver);
        controllerDriver.start();
    }

    /** An observer with node id 100 in {@code <dir>/observer}, as BrokerNode builds one. */
    private Observer startObserver() {
        Path nodeDir = dir.resolve("observer");
        FileSnapshotStore snapshots = FileSnapshotStore.open(nodeDir);
        FileRaftLog log = FileRaftLog.open(nodeDir, 16 * 1024);
        MetadataFollower follower = MetadataFollower.open(100, nodeDir.resolve("state"), snapshots, SMALL_SNAPSHOTS,
                faults);
        List<MetadataImage> published = new CopyOnWriteArrayList<>();
        List<Set<String>> created = new CopyOnWriteArrayList<>();
        follower.register((delta, image) -> {
            published.add(image);
            created.add(delta.topicsDelta() == null ? Set.of() : delta.topicsDelta().createdTopicIds().stream()
                    .map(id -> image.topics().topic(id).name()).collect(Collectors.toSet()));
        });
        RaftDriver driver = new RaftDriver(quorum.raftConfig(100, TICK_MS, 500), TICK_MS, log, snapshots,
                new MetadataLogRetention(log, 1, -1, System::currentTimeMillis), new FileQuorumStateStore(nodeDir),
                new GrpcRaftTransport(100, CLUSTER_ID, quorum.voters(), -1, quorum.requestTimeoutMs()), follower, 100);
        follower.start(driver);
        driver.start();
        return new Observer(follower, driver, log, snapshots, published, created);
    }

    private <T> T onController(Supplier<CompletableFuture<T>> request) {
        return await().atMost(WAIT).ignoreExceptionsMatching(e -> e instanceof ExecutionException
                        && e.getCause() instanceof ControllerException ce && ce.error() == Errors.NOT_CONTROLLER)
                .until(() -> request.get().get(10, TimeUnit.SECONDS), answer -> true);
    }

    /** Registers and unfences brokers 1 and 2, which also waits until the controller is active. */
    private void registerBrokers() {
        for (int brokerId = 1; brokerId <= 2; brokerId++) {
            int id = brokerId;
            long epoch = onController(() -> controller.registerBroker(new BrokerRegistrationRequest(CLUSTER_ID, id,
                    UUID.randomUUID(), List.of(new Endpoint("PLAINTEXT", "localhost", 9000 + id, "PLAINTEXT")),
                    Optional.empty())));
            await().atMost(WAIT).until(() -> !onController(() -> controller.heartbeat(new BrokerHeartbeatRequest(id,
                    epoch, controller.image().offset(), false, false))).isFenced());
        }
    }

    /** Creates topics all at once (they share log flushes); the controller is active already. */
    private void createTopics(String prefix, int count) throws Exception {
        List<CompletableFuture<?>> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            created.add(controller.createTopic(CreateTopicRequest.of(prefix + i, 3, 2)));
        }
        CompletableFuture.allOf(created.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private void awaitObserverCaughtUp() {
        await().atMost(WAIT).until(() -> observer.follower().image().equals(controller.image()));
    }

    @Test
    void followsTheLogAndPublishesEachCommittedImage() throws Exception {
        startController();
        observer = startObserver();
        registerBrokers();
        createTopics("live-", 3);
        awaitObserverCaughtUp();
        // Publishers run on their own loop, so the last published image may trail the applied one briefly.
        await().atMost(WAIT).until(() -> controller.image().equals(
                observer.published().get(observer.published().size() - 1)));
        assertEquals(Set.of("live-0", "live-1", "live-2"), observer.createdTopicNames().stream()
                .flatMap(Set::stream).collect(Collectors.toSet()));
        await().atMost(WAIT).until(() -> observer.follower().leaderId().orElse(-1) == 1);
    }

    @Test
    void aLateObserverLoadsTheControllersSnapshotThenTheLogAfterIt() throws Exception {
        startController();
        registerBrokers();
        createTopics("early-", 30);
        // The controller snapshotted and retention deleted the prefix: the observer can only start from a snapshot.
        await().atMost(WAIT).until(() -> controllerLog.startOffset() > 0);

        observer = startObserver();
        awaitObserverCaughtUp();
        // The first image it published came from the snapshot, with everything in it shown as created.
        await().atMost(WAIT).until(() -> !observer.createdTopicNames().isEmpty());
        assertTrue(observer.createdTopicNames().get(0).contains("early-0"), observer.createdTopicNames().toString());
        createTopics("later-", 2);
        awaitObserverCaughtUp();
    }

    @Test
    void aRestartedObserverRebuildsFromItsOwnSnapshotAndLog() throws Exception {
        startController();
        observer = startObserver();
        registerBrokers();
        createTopics("first-", 30);
        awaitObserverCaughtUp();
        await().atMost(WAIT).until(() -> observer.snapshots().latest().isPresent());
        observer.close();

        createTopics("while-down-", 2);
        observer = startObserver();
        awaitObserverCaughtUp();
        assertTrue(observer.follower().image().topics().topicsByName().containsKey("while-down-1"));
    }
}
