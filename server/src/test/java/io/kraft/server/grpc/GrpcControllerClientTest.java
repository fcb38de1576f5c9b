package io.kraft.server.grpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.kraft.broker.TestWaits;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.AlterPartitionRequest;
import io.kraft.metadata.controller.BrokerHeartbeatReply;
import io.kraft.metadata.controller.BrokerHeartbeatRequest;
import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.CreateTopicResult;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.ProducerIdBlock;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.store.RocksDbMetadataStorage;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.controller.ControllerServiceGrpc;
import io.kraft.proto.controller.RegisterBrokerResponse;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.raft.grpc.GrpcRaftTransport;
import io.kraft.storage.errors.Errors;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GrpcControllerClient} against three controllers serving ControllerService on their Raft ports: it finds
 * the active one, maps answers back to the in-process controller's values and errors, follows a failover, and its
 * heartbeat stream lets the controller fence a vanished broker quickly.
 */
class GrpcControllerClientTest {
    private static final String CLUSTER_ID = "grpc-client-test";
    private static final long TICK_MS = 10;
    private static final Duration WAIT = Duration.ofSeconds(30);
    // Sessions outlast the test: only a closed heartbeat stream (300 ms grace) can fence a broker here.
    private static final ControllerSettings SETTINGS = new ControllerSettings(CLUSTER_ID, 120_000, 300, false, 1, 1);

    @TempDir
    Path dir;

    private final Map<Integer, Voter> voters = new TreeMap<>();
    private QuorumConfig quorum;
    private GrpcControllerClient client;

    private record Voter(QuorumController controller, RaftDriver driver, FileRaftLog log) {
    }

    private final List<String> faults = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopAll() {
        if (client != null) {
            client.close();
        }
        for (int id : List.copyOf(voters.keySet())) {
            stop(id);
        }
        assertEquals(List.of(), faults, "metadata faults");
    }

    private void startQuorum() throws IOException {
        quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS,
                "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort(),
                QuorumConfig.ELECTION_TIMEOUT_MS, "500", QuorumConfig.FETCH_TIMEOUT_MS, "1000",
                QuorumConfig.ELECTION_BACKOFF_MAX_MS, "300", QuorumConfig.REQUEST_TIMEOUT_MS, "800"));
        for (int id = 1; id <= 3; id++) {
            start(id);
        }
    }

    private void start(int nodeId) {
        Path nodeDir = dir.resolve("node-" + nodeId);
        FileSnapshotStore snapshots = FileSnapshotStore.open(nodeDir);
        FileRaftLog log = FileRaftLog.open(nodeDir, 64 * 1024);
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        QuorumController controller = QuorumController.builder(nodeId, SETTINGS)
                .topicConfigs(topicConfigs)
                .supportedFeatures(Map.of("metadata.version", new SupportedRange(1, 3)))
                .storage(new RocksDbMetadataStorage(nodeDir.resolve("state"), snapshots))
                .faultHandler((message, cause) -> faults.add(message))
                .build();
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, CLUSTER_ID, quorum.voters(),
                quorum.voters().get(nodeId).getPort(), quorum.requestTimeoutMs(),
                List.of(new ControllerGrpcService(controller)));
        RaftDriver driver = new RaftDriver(quorum.raftConfig(nodeId, TICK_MS, 500), TICK_MS, log, snapshots,
                MetadataLogRetention.from(log, Map.of()), new FileQuorumStateStore(nodeDir), transport, controller,
                nodeId);
        controller.start(driver);
        driver.start();
        voters.put(nodeId, new Voter(controller, driver, log));
    }

    private void stop(int nodeId) {
        Voter voter = voters.remove(nodeId);
        voter.driver().close();
        voter.controller().close();
        voter.log().close();
    }

    /** A port no other part of this test JVM was given, below the kernel's ephemeral range. */
    private static int freePort() throws IOException {
        return TestWaits.freePort();
    }

    private Map<Integer, InetSocketAddress> addresses() {
        return quorum.voters();
    }

    private static BrokerRegistrationRequest registration(int brokerId) {
        return new BrokerRegistrationRequest(CLUSTER_ID, brokerId, UUID.randomUUID(),
                List.of(new Endpoint("PLAINTEXT", "localhost", 9000 + brokerId, "PLAINTEXT")), Optional.of("rack-a"));
    }

    private static <T> T get(CompletableFuture<T> answer) throws Exception {
        return answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static Errors errorOf(CompletableFuture<?> answer) {
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> answer.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertTrue(failure.getCause() instanceof ControllerException, failure.toString());
        return ((ControllerException) failure.getCause()).error();
    }

    private MetadataImage latestImage() {
        return voters.values().stream().map(v -> v.controller().image())
                .max((a, b) -> Long.compare(a.offset(), b.offset())).orElseThrow();
    }

    /** Registers a broker through the client and heartbeats until the active controller unfences it. */
    private long startBroker(int brokerId) throws Exception {
        long epoch = get(client.registerBroker(registration(brokerId)));
        await().atMost(WAIT).until(() -> {
            BrokerHeartbeatReply reply = get(client.heartbeat(
                    new BrokerHeartbeatRequest(brokerId, epoch, latestImage().offset(), false, false)));
            return !reply.isFenced();
        });
        return epoch;
    }

    /**
     * The partition once a registered, unfenced broker leads it. On a loaded machine an election of the quorum can
     * come between steps, and a new active controller fences brokers it has not heard from: heartbeats unfence them.
     */
    private PartitionRegistration ledByALiveBroker(String topic, int partitionId, Map<Integer, Long> brokerEpochs) {
        await().atMost(WAIT).until(() -> {
            for (Map.Entry<Integer, Long> broker : brokerEpochs.entrySet()) {
                get(client.heartbeat(new BrokerHeartbeatRequest(broker.getKey(), broker.getValue(),
                        latestImage().offset(), false, false)));
            }
            PartitionRegistration partition = latestImage().topics().topic(topic).partition(partitionId);
            return partition.leader() >= 0 && latestImage().cluster().broker(partition.leader()) != null
                    && !latestImage().cluster().broker(partition.leader()).fenced();
        });
        return latestImage().topics().topic(topic).partition(partitionId);
    }

    private int activeId() {
        return voters.keySet().stream().filter(id -> {
            try {
                voters.get(id).controller().deleteTopic("no-such-topic").get(10, TimeUnit.SECONDS);
                return true;
            } catch (ExecutionException e) {
                return !(e.getCause() instanceof ControllerException ce) || ce.error() != Errors.NOT_CONTROLLER;
            } catch (Exception e) {
                return false;
            }
        }).findFirst().orElseThrow();
    }

    @Test
    void answersAsTheInProcessControllerDoes() throws Exception {
        startQuorum();
        client = new GrpcControllerClient(addresses());
        long epoch1 = startBroker(1);
        long epoch2 = startBroker(2);

        CreateTopicResult validated = get(client.validateCreateTopic(CreateTopicRequest.of("orders", 4, 2)));
        assertEquals(new CreateTopicResult(validated.topicId(), 4, 2), validated);
        assertNull(latestImage().topics().topic("orders"), "validate_only creates nothing");

        CreateTopicResult created = get(client.createTopic(CreateTopicRequest.of("orders", 4, 2)));
        assertEquals(4, created.numPartitions());
        // Answers come at commit, once the active controller's image holds the topic.
        assertEquals(created.topicId(), voters.get(activeId()).controller().image().topics().topic("orders").id());
        assertEquals(Errors.TOPIC_ALREADY_EXISTS, errorOf(client.createTopic(CreateTopicRequest.of("orders", 1, 1))));
        assertEquals(Errors.INVALID_TOPIC_EXCEPTION, errorOf(client.createTopic(CreateTopicRequest.of("a/b", 1, 1))));
        assertEquals(Errors.INVALID_REPLICATION_FACTOR,
                errorOf(client.createTopic(CreateTopicRequest.of("wide", 1, 3))));

        get(client.validateCreatePartitions("orders", 6, List.of()));
        assertEquals(Errors.INVALID_PARTITIONS, errorOf(client.validateCreatePartitions("orders", 2, List.of())));
        get(client.createPartitions("orders", 6, List.of(List.of(1, 2), List.of(2, 1))));
        await().atMost(WAIT).until(() -> latestImage().topics().topic("orders").partitions().size() == 6);

        get(client.incrementalAlterConfigs(ConfigResource.topic("orders"), Map.of("retention.ms", Optional.of("60000"))));
        await().atMost(WAIT).until(() -> "60000".equals(
                latestImage().configs().configs(ConfigResource.topic("orders")).get("retention.ms")));

        ProducerIdBlock block = get(client.allocateProducerIds(1, epoch1));
        assertEquals(1, block.assignedBrokerId());
        assertTrue(block.size() > 0);
        assertEquals(Errors.STALE_BROKER_EPOCH, errorOf(client.allocateProducerIds(1, epoch1 + 100)));

        PartitionRegistration partition = ledByALiveBroker("orders", 0, Map.of(1, epoch1, 2, epoch2));
        PartitionRegistration shrunk = get(client.alterPartition(new AlterPartitionRequest(partition.leader(),
                latestImage().cluster().broker(partition.leader()).epoch(), created.topicId(), 0,
                partition.leaderEpoch(), List.of(partition.leader()), partition.partitionEpoch())));
        assertEquals(List.of(partition.leader()), shrunk.isr());
        assertEquals(partition.replicas(), shrunk.replicas());
        assertEquals(partition.partitionEpoch() + 1, shrunk.partitionEpoch());

        assertEquals(created.topicId(), get(client.deleteTopic("orders")));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, errorOf(client.deleteTopic("orders")));

        // ACLs: per-ACL results (an invalid one refused, the others created once), then a filter's deletions.
        io.kraft.metadata.authorizer.StandardAcl read = new io.kraft.metadata.authorizer.StandardAcl(
                io.kraft.metadata.authorizer.ResourceType.TOPIC, "orders", io.kraft.metadata.authorizer.PatternType.LITERAL,
                "User:alice", "*", io.kraft.metadata.authorizer.AclOperation.READ,
                io.kraft.metadata.authorizer.AclPermissionType.ALLOW);
        io.kraft.metadata.authorizer.StandardAcl unnamed = new io.kraft.metadata.authorizer.StandardAcl(
                io.kraft.metadata.authorizer.ResourceType.TOPIC, "orders", io.kraft.metadata.authorizer.PatternType.LITERAL,
                "alice", "*", io.kraft.metadata.authorizer.AclOperation.READ,
                io.kraft.metadata.authorizer.AclPermissionType.ALLOW);
        assertEquals(List.of(Errors.NONE, Errors.INVALID_REQUEST), get(client.createAcls(List.of(read, unnamed)))
                .stream().map(io.kraft.metadata.controller.ApiError::error).toList());
        await().atMost(WAIT).until(() -> latestImage().acls().acls().containsValue(read));
        List<io.kraft.metadata.controller.AclDeleteResult> deleted = get(client.deleteAcls(List.of(
                io.kraft.metadata.authorizer.AclFilter.ANY)));
        assertEquals(List.of(read), deleted.get(0).deleted());
        await().atMost(WAIT).until(() -> latestImage().acls().acls().isEmpty());
        assertEquals(Errors.INCONSISTENT_CLUSTER_ID, errorOf(client.registerBroker(new BrokerRegistrationRequest(
                "other-cluster", 7, UUID.randomUUID(), List.of(), Optional.empty()))));
    }

    @Test
    void followsTheActiveControllerAcrossAFailover() throws Exception {
        startQuorum();
        // A wrong hint of its own first: the client must still find the active controller.
        client = new GrpcControllerClient(addresses(), 20_000, 2_000, () -> OptionalInt.of(3));
        long epoch = startBroker(1);
        get(client.createTopic(CreateTopicRequest.of("before", 2, 1)));
        int oldActive = activeId();
        assertEquals(oldActive, client.currentTarget());

        stop(oldActive);
        CreateTopicResult after = get(client.createTopic(CreateTopicRequest.of("after", 2, 1)));
        int newActive = activeId();
        assertNotEquals(oldActive, newActive);
        assertEquals(newActive, client.currentTarget());
        assertEquals(after.topicId(), voters.get(newActive).controller().image().topics().topic("after").id());
        assertTrue(voters.get(newActive).controller().image().topics().topicsByName().containsKey("before"));

        // Heartbeats reach the new controller too, and the broker stays registered with the same epoch.
        BrokerHeartbeatReply reply = get(client.heartbeat(
                new BrokerHeartbeatRequest(1, epoch, latestImage().offset(), false, false)));
        assertFalse(reply.isFenced());
    }

    @Test
    void closingTheClientEndsItsHeartbeatStreamAndTheBrokerIsFencedAfterTheGrace() throws Exception {
        startQuorum();
        client = new GrpcControllerClient(addresses());
        startBroker(1);
        get(client.createTopic(CreateTopicRequest.of("led", 1, 1)));
        assertEquals(1, latestImage().topics().topic("led").partition(0).leader());

        client.close();
        client = null;
        // The session timeout is two minutes: only the closed stream can fence the broker this soon.
        await().atMost(WAIT).until(() -> latestImage().cluster().broker(1).fenced());
        await().atMost(WAIT).until(() -> latestImage().topics().topic("led").partition(0).leader()
                == PartitionRegistration.NO_LEADER);
    }

    @Test
    void aRequestNoControllerAnswersFailsWithNotControllerAtItsDeadline() throws Exception {
        quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, "1@localhost:" + freePort() + ",2@localhost:" + freePort()));
        client = new GrpcControllerClient(addresses(), 500, 500, OptionalInt::empty);
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> client.createTopic(CreateTopicRequest.of("nowhere", 1, 1)).get(10, TimeUnit.SECONDS));
        ControllerException error = (ControllerException) failure.getCause();
        assertEquals(Errors.NOT_CONTROLLER, error.error());
        assertTrue(error.getMessage().contains("No active controller among [1, 2] answered CreateTopics in time"),
                error.getMessage());
    }

    @Test
    void aControllerThatNamesItselfButDoesNotServeYetIsAskedAgainAtAShortPace() throws Exception {
        // A controller elected but still rebuilding its state answers NOT_CONTROLLER naming itself; the client
        // must not back off exponentially (up to 1 s a hop) while waiting for it, or it overshoots its start.
        int refusals = 30;
        AtomicInteger calls = new AtomicInteger();
        Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new ControllerServiceGrpc.ControllerServiceImplBase() {
                    @Override
                    public void registerBroker(io.kraft.proto.controller.RegisterBrokerRequest request,
                                               StreamObserver<RegisterBrokerResponse> observer) {
                        RegisterBrokerResponse.Builder response = RegisterBrokerResponse.newBuilder();
                        if (calls.incrementAndGet() <= refusals) {
                            response.setErrorCode(Errors.NOT_CONTROLLER.code()).setActiveControllerId(1);
                        } else {
                            response.setBrokerEpoch(7);
                        }
                        observer.onNext(response.build());
                        observer.onCompleted();
                    }
                }).build().start();
        try {
            client = new GrpcControllerClient(Map.of(1, new InetSocketAddress("localhost", server.getPort())),
                    60_000, 2_000, OptionalInt::empty);
            assertEquals(7L, client.registerBroker(registration(1)).get(60, TimeUnit.SECONDS));
            // Every refusal was asked again, at the claiming pace RetryPaceTest pins down (no wall-clock check).
            assertEquals(refusals + 1, calls.get());
        } finally {
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void mapsEveryKnownErrorCodeBack() {
        for (Errors error : Errors.values()) {
            assertEquals(error, GrpcControllerClient.errorFor(error.code()));
        }
        assertEquals(Errors.UNKNOWN_SERVER_ERROR, GrpcControllerClient.errorFor(9999));
    }
}
