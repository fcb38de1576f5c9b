package io.kraft.server.grpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.store.RocksDbMetadataStorage;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.proto.controller.AllocateProducerIdsRequest;
import io.kraft.proto.controller.AlterPartitionResponse;
import io.kraft.proto.controller.AlterPartitionRequest;
import io.kraft.proto.controller.AllocateProducerIdsResponse;
import io.kraft.proto.controller.AlterConfigsResource;
import io.kraft.proto.controller.AlterableConfig;
import io.kraft.proto.controller.BrokerHeartbeatRequest;
import io.kraft.proto.controller.BrokerHeartbeatResponse;
import io.kraft.proto.controller.ControllerServiceGrpc;
import io.kraft.proto.controller.CreatableTopic;
import io.kraft.proto.controller.CreatableTopicResult;
import io.kraft.proto.controller.CreatePartitionsRequest;
import io.kraft.proto.controller.CreatePartitionsTopic;
import io.kraft.proto.controller.CreateTopicsRequest;
import io.kraft.proto.controller.CreateTopicsResponse;
import io.kraft.proto.controller.DeleteTopicsRequest;
import io.kraft.proto.controller.IncrementalAlterConfigsRequest;
import io.kraft.proto.controller.RegisterBrokerRequest;
import io.kraft.proto.controller.RegisterBrokerResponse;
import io.kraft.proto.metadata.BrokerEndpoint;
import io.kraft.proto.metadata.ConfigResourceType;
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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ControllerService over gRPC loopback in front of a single-voter quorum controller. */
class ControllerGrpcServiceTest {
    private static final String CLUSTER_ID = "grpc-controller-test";
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private FileRaftLog log;
    private RaftDriver driver;
    private QuorumController controller;
    private Server server;
    private ManagedChannel channel;
    private ControllerServiceGrpc.ControllerServiceBlockingStub blocking;
    private ControllerServiceGrpc.ControllerServiceStub async;

    private final List<String> faults = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        int raftPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            raftPort = socket.getLocalPort();
        }
        QuorumConfig quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, "1@localhost:" + raftPort,
                QuorumConfig.ELECTION_TIMEOUT_MS, "300", QuorumConfig.FETCH_TIMEOUT_MS, "600"));
        FileSnapshotStore snapshots = FileSnapshotStore.open(dir);
        log = FileRaftLog.open(dir, 64 * 1024);
        // A long session and a short connection-loss grace: only a closed stream can fence within the test.
        ControllerSettings settings = new ControllerSettings(CLUSTER_ID, 120_000, 200, false, 1, 1);
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        controller = QuorumController.builder(1, settings)
                .topicConfigs(topicConfigs)
                .supportedFeatures(Map.of("metadata.version", new SupportedRange(1, 3)))
                .storage(new RocksDbMetadataStorage(dir.resolve("state"), snapshots))
                .faultHandler((message, cause) -> faults.add(message))
                .build();
        GrpcRaftTransport transport = new GrpcRaftTransport(1, CLUSTER_ID, quorum.voters(), raftPort,
                quorum.requestTimeoutMs());
        driver = new RaftDriver(quorum.raftConfig(1, 10, 500), 10, log, snapshots,
                MetadataLogRetention.from(log, Map.of()), new FileQuorumStateStore(dir), transport, controller, 1);
        controller.start(driver);
        driver.start();
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new ControllerGrpcService(controller)).build().start();
        channel = Grpc.newChannelBuilderForAddress("localhost", server.getPort(), InsecureChannelCredentials.create())
                .build();
        blocking = ControllerServiceGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
        async = ControllerServiceGrpc.newStub(channel);
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        driver.close();
        controller.close();
        log.close();
        assertEquals(List.of(), faults, "metadata faults");
    }

    private RegisterBrokerRequest registration(String clusterId, int brokerId) {
        return RegisterBrokerRequest.newBuilder().setClusterId(clusterId).setBrokerId(brokerId)
                .setIncarnationId(Uuids.toProto(UUID.randomUUID()))
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("localhost").setPort(9092)
                        .setSecurityProtocol("PLAINTEXT"))
                .build();
    }

    private long register() {
        AtomicReference<RegisterBrokerResponse> registered = new AtomicReference<>();
        await().atMost(WAIT).until(() -> {
            registered.set(blocking.registerBroker(registration(CLUSTER_ID, 1)));
            return registered.get().getErrorCode() != Errors.NOT_CONTROLLER.code();
        });
        assertEquals(0, registered.get().getErrorCode(), registered.get().getErrorMessage());
        return registered.get().getBrokerEpoch();
    }

    private static StreamObserver<BrokerHeartbeatResponse> collectingInto(BlockingQueue<BrokerHeartbeatResponse> replies) {
        return new StreamObserver<>() {
            @Override
            public void onNext(BrokerHeartbeatResponse value) {
                replies.add(value);
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
        };
    }

    /** Opens a heartbeat stream for broker 1 and heartbeats on it until the broker is unfenced. */
    private StreamObserver<BrokerHeartbeatRequest> heartbeatUntilUnfenced(long brokerEpoch) {
        BlockingQueue<BrokerHeartbeatResponse> replies = new LinkedBlockingQueue<>();
        StreamObserver<BrokerHeartbeatRequest> heartbeats = async.brokerHeartbeat(collectingInto(replies));
        await().atMost(WAIT).until(() -> {
            heartbeats.onNext(BrokerHeartbeatRequest.newBuilder().setBrokerId(1).setBrokerEpoch(brokerEpoch)
                    .setCurrentMetadataOffset(controller.image().offset()).build());
            BrokerHeartbeatResponse reply = replies.poll(10, TimeUnit.SECONDS);
            return reply != null && reply.getErrorCode() == 0 && !reply.getIsFenced();
        });
        return heartbeats;
    }

    @Test
    void theEndOfAReplacedHeartbeatStreamDoesNotFence() throws Exception {
        long brokerEpoch = register();
        StreamObserver<BrokerHeartbeatRequest> oldStream = heartbeatUntilUnfenced(brokerEpoch);
        StreamObserver<BrokerHeartbeatRequest> newStream = heartbeatUntilUnfenced(brokerEpoch);
        oldStream.onError(new IOException("stale connection finally noticed"));
        // The broker stays unfenced well past the 200 ms grace.
        await().during(Duration.ofMillis(600)).atMost(WAIT).until(() -> !controller.image().cluster().broker(1).fenced());
        newStream.onCompleted();
        await().atMost(WAIT).until(() -> controller.image().cluster().broker(1).fenced());
    }

    @Test
    void theEndOfAStreamWhoseHeartbeatsWereAllRefusedDoesNotFence() throws Exception {
        long brokerEpoch = register();
        heartbeatUntilUnfenced(brokerEpoch);
        // A stream on which the controller refused every heartbeat (as a voter answering NOT_CONTROLLER would):
        // its end says nothing of the broker's connection to the controller it does heartbeat to.
        BlockingQueue<BrokerHeartbeatResponse> replies = new LinkedBlockingQueue<>();
        StreamObserver<BrokerHeartbeatRequest> refused = async.brokerHeartbeat(collectingInto(replies));
        refused.onNext(BrokerHeartbeatRequest.newBuilder().setBrokerId(1).setBrokerEpoch(brokerEpoch + 100)
                .setCurrentMetadataOffset(controller.image().offset()).build());
        BrokerHeartbeatResponse reply = replies.poll(10, TimeUnit.SECONDS);
        assertEquals(Errors.STALE_BROKER_EPOCH.code(), reply.getErrorCode());
        refused.onCompleted();
        // The broker stays unfenced well past the 200 ms grace.
        await().during(Duration.ofMillis(600)).atMost(WAIT).until(() -> !controller.image().cluster().broker(1).fenced());

        StreamObserver<BrokerHeartbeatRequest> live = heartbeatUntilUnfenced(brokerEpoch);
        live.onError(new IOException("broker process killed"));
        await().atMost(WAIT).until(() -> controller.image().cluster().broker(1).fenced());
    }

    @Test
    void servesEveryRpcAndFencesABrokerWhoseHeartbeatStreamCloses() throws Exception {
        long brokerEpoch = register();
        assertEquals(Errors.INCONSISTENT_CLUSTER_ID.code(),
                blocking.registerBroker(registration("other-cluster", 2)).getErrorCode());

        StreamObserver<BrokerHeartbeatRequest> heartbeats = heartbeatUntilUnfenced(brokerEpoch);

        CreateTopicsResponse createResponse = blocking.createTopics(CreateTopicsRequest.newBuilder()
                .addTopics(CreatableTopic.newBuilder().setName("events").setNumPartitions(2).setReplicationFactor(1))
                .addTopics(CreatableTopic.newBuilder().setName("bad/name").setNumPartitions(1).setReplicationFactor(1))
                .build());
        CreatableTopicResult created = createResponse.getTopics(0);
        assertEquals(0, created.getErrorCode(), created.getErrorMessage());
        assertEquals(Errors.INVALID_TOPIC_EXCEPTION.code(), createResponse.getTopics(1).getErrorCode(),
                "one invalid topic fails alone");
        assertEquals(2, created.getNumPartitions());
        UUID topicId = Uuids.fromProto(created.getTopicId());
        assertEquals(topicId, controller.image().topics().topic("events").id());
        assertEquals(Errors.TOPIC_ALREADY_EXISTS.code(), blocking.createTopics(CreateTopicsRequest.newBuilder()
                .addTopics(CreatableTopic.newBuilder().setName("events").setNumPartitions(1).setReplicationFactor(1))
                .build()).getTopics(0).getErrorCode());

        assertEquals(0, blocking.createPartitions(CreatePartitionsRequest.newBuilder()
                .addTopics(CreatePartitionsTopic.newBuilder().setName("events").setTotalCount(3)).build())
                .getTopics(0).getErrorCode());
        assertEquals(0, blocking.incrementalAlterConfigs(IncrementalAlterConfigsRequest.newBuilder()
                .addResources(AlterConfigsResource.newBuilder().setResourceType(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC)
                        .setResourceName("events")
                        .addConfigs(AlterableConfig.newBuilder().setName("retention.ms").setValue("60000")))
                .build()).getResources(0).getErrorCode());
        AllocateProducerIdsResponse block = blocking.allocateProducerIds(AllocateProducerIdsRequest.newBuilder()
                .setBrokerId(1).setBrokerEpoch(brokerEpoch).build());
        assertEquals(0, block.getErrorCode(), block.getErrorMessage());
        assertTrue(block.getSize() > 0);
        assertEquals(Errors.STALE_BROKER_EPOCH.code(), blocking.allocateProducerIds(AllocateProducerIdsRequest
                .newBuilder().setBrokerId(1).setBrokerEpoch(brokerEpoch + 1000).build()).getErrorCode());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), blocking.deleteTopics(DeleteTopicsRequest.newBuilder()
                .addNames("missing").build()).getTopics(0).getErrorCode());

        await().atMost(WAIT).until(() -> controller.image().topics().topic("events").partitions().size() == 3);
        assertEquals("60000", controller.image().configs().configs(ConfigResource.topic("events")).get("retention.ms"));

        // The broker "crashes": its stream ends, and the controller fences it after the 200 ms grace.
        heartbeats.onError(new IOException("broker process killed"));
        await().atMost(WAIT).until(() -> controller.image().cluster().broker(1).fenced());
        assertEquals(-1, controller.image().topics().topic("events").partition(0).leader());
    }

    @Test
    void refusesBrokerRpcsFromANodeIdThatIsNotRegistered() throws Exception {
        long brokerEpoch = register();
        heartbeatUntilUnfenced(brokerEpoch);
        UUID topicId = Uuids.fromProto(blocking.createTopics(CreateTopicsRequest.newBuilder()
                .addTopics(CreatableTopic.newBuilder().setName("t").setNumPartitions(1).setReplicationFactor(1))
                .build()).getTopics(0).getTopicId());
        int stranger = 7;
        BlockingQueue<BrokerHeartbeatResponse> replies = new LinkedBlockingQueue<>();
        StreamObserver<BrokerHeartbeatRequest> heartbeats = async.brokerHeartbeat(collectingInto(replies));
        heartbeats.onNext(BrokerHeartbeatRequest.newBuilder().setBrokerId(stranger).setBrokerEpoch(-1).build());
        BrokerHeartbeatResponse heartbeat = replies.poll(20, TimeUnit.SECONDS);
        assertEquals(Errors.BROKER_ID_NOT_REGISTERED.code(), heartbeat.getErrorCode(), heartbeat.getErrorMessage());
        heartbeats.onCompleted();
        AlterPartitionResponse alter = blocking.alterPartition(AlterPartitionRequest.newBuilder().setBrokerId(stranger)
                .setBrokerEpoch(-1).setTopicId(Uuids.toProto(topicId)).setPartitionId(0).addNewIsr(stranger).build());
        assertEquals(Errors.BROKER_ID_NOT_REGISTERED.code(), alter.getErrorCode(), alter.getErrorMessage());
        assertEquals(Errors.BROKER_ID_NOT_REGISTERED.code(), blocking.allocateProducerIds(AllocateProducerIdsRequest
                .newBuilder().setBrokerId(stranger).setBrokerEpoch(-1).build()).getErrorCode());
        assertEquals(List.of(1), controller.image().topics().topic("t").partition(0).isr(), "nothing changed");
        assertTrue(controller.image().cluster().broker(stranger) == null, "and nothing was registered");
    }
}
