package io.kraft.server.security;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.StreamObserver;
import io.kraft.broker.TestWaits;
import io.kraft.broker.network.TestCertificateAuthority;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.controller.BrokerHeartbeatRequest;
import io.kraft.proto.controller.BrokerHeartbeatResponse;
import io.kraft.proto.controller.ControllerServiceGrpc;
import io.kraft.proto.controller.CreatableTopic;
import io.kraft.proto.controller.CreateTopicsRequest;
import io.kraft.proto.controller.AlterPartitionRequest;
import io.kraft.proto.controller.RegisterBrokerRequest;
import io.kraft.proto.metadata.Uuid;
import io.kraft.proto.raft.BeginQuorumEpochRequest;
import io.kraft.proto.raft.DescribeQuorumRequest;
import io.kraft.proto.raft.DescribeQuorumResponse;
import io.kraft.proto.raft.FetchRequest;
import io.kraft.proto.raft.RaftServiceGrpc;
import io.kraft.proto.raft.ReplicaState;
import io.kraft.proto.raft.VoteRequest;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.server.BrokerNode;
import io.kraft.server.ControllerNode;
import io.kraft.server.TestFaultHandler;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three dedicated controllers and a broker whose whole control plane (Raft between the voters, the broker's metadata
 * fetches, registration, heartbeats, topic creation) is mutual TLS with certificates from one test authority, each
 * naming its node. Outsiders (no certificate, another authority's, a certificate of the cluster that names no node)
 * and insiders claiming to be another node are refused every call, and nothing changes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ControlPlaneTlsTest {
    private static final String CLUSTER_ID = "Q29udHJvbFBsYW5lVGxzVGVzdA";
    private static final long WAIT_MS = TestWaits.WAIT_MS;
    private static final String PASSWORD = TestCertificateAuthority.PASSWORD;
    private static final int BROKER = 4;

    @TempDir
    static Path dir;
    static TestCertificateAuthority authority;
    static TopicConfigResolver topicConfigs;
    static Path trustStore;
    static final Map<Integer, Path> nodeStores = new TreeMap<>();
    static Path adminStore;
    static Path strangerStore;
    static Path foreignStore;
    static String voters;
    static final Map<Integer, ControllerNode> controllers = new TreeMap<>();
    static final TestFaultHandler faults = new TestFaultHandler();
    static BrokerNode broker;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        authority = TestCertificateAuthority.create(dir.resolve("ca"), "CN=kraft-test-ca");
        for (int id = 1; id <= BROKER; id++) {
            nodeStores.put(id, authority.issue("CN=kraft-node-" + id + ",O=kraft-test"));
        }
        adminStore = authority.issue("CN=kraft-admin,O=kraft-test");
        strangerStore = authority.issue("CN=stranger,O=kraft-test");
        trustStore = authority.trustStore();
        // Another authority's certificate, naming a voter.
        foreignStore = TestCertificateAuthority.create(dir.resolve("other-ca"), "CN=other-ca")
                .issue("CN=kraft-node-1,O=kraft-test");

        voters = "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort();
        topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        for (int id = 1; id <= 3; id++) {
            controllers.put(id, ControllerNode.start(id, CLUSTER_ID, dir.resolve("controller-" + id), props(id),
                    topicConfigs, faults));
        }
        int brokerPort = freePort();
        Map<String, String> brokerProps = props(BROKER);
        brokerProps.put("log.dirs", dir.resolve("broker").resolve("logs").toString());
        broker = BrokerNode.start(BROKER, CLUSTER_ID, dir.resolve("broker").resolve("metadata"),
                "PLAINTEXT://localhost:" + brokerPort, brokerProps, topicConfigs, faults);
        broker.ready().get(WAIT_MS, TimeUnit.MILLISECONDS);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + brokerPort,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
        controllers.values().forEach(ControllerNode::close);
        faults.assertNone();
    }

    /** A node's properties: the control plane on SSL, this node's certificate on it, one trust store for all. */
    static Map<String, String> props(int nodeId) {
        Map<String, String> props = new HashMap<>();
        props.put("controller.quorum.voters", voters);
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SSL");
        props.put("ssl.truststore.type", "PKCS12");
        props.put("ssl.truststore.location", trustStore.toString());
        props.put("ssl.truststore.password", PASSWORD);
        props.put("listener.name.controller.ssl.keystore.type", "PKCS12");
        props.put("listener.name.controller.ssl.keystore.location", nodeStores.get(nodeId).toString());
        props.put("listener.name.controller.ssl.keystore.password", PASSWORD);
        props.put("super.users", "User:CN=kraft-admin,O=kraft-test");
        return props;
    }

    @Test
    @Order(1)
    void outsidersAndImpostorsAreRefusedEveryCallAndChangeNothing() throws Exception {
        ControllerNode leader = awaitLeader();
        LeaderAndEpoch before = leader.controller().leader();
        MetadataImage image = leader.controller().image();
        long brokerEpoch = image.cluster().broker(BROKER).epoch();
        int follower = controllers.keySet().stream().filter(id -> id != leader.nodeId()).findFirst().orElseThrow();

        Map<String, ChannelCredentials> outsiders = Map.of(
                "plaintext", InsecureChannelCredentials.create(),
                "TLS without a certificate", tls(null),
                "another authority's certificate", tls(foreignStore),
                "a cluster certificate naming no node", tls(strangerStore));
        for (Map.Entry<String, ChannelCredentials> outsider : outsiders.entrySet()) {
            String who = outsider.getKey();
            ChannelCredentials credentials = outsider.getValue();
            assertRefused(who, () -> vote(credentials, follower, 1, before.epoch() + 1));
            assertRefused(who, () -> announceLeader(credentials, follower, 1, before.epoch() + 1));
            assertRefused(who, () -> fetch(credentials, leader.nodeId(), 99, before.epoch()));
            assertRefused(who, () -> register(credentials, leader.nodeId(), 5));
            assertRefused(who, () -> heartbeatAsking(credentials, leader.nodeId(), BROKER, brokerEpoch));
            assertRefused(who, () -> createTopic(credentials, leader.nodeId(), "intruders"));
            assertRefused(who, () -> describeQuorum(credentials, leader.nodeId()));
        }
        // Certificates of the cluster, each claiming another node than the one it names.
        ChannelCredentials broker4 = tls(nodeStores.get(BROKER));
        ChannelCredentials voter2 = tls(nodeStores.get(2));
        ChannelCredentials administrator = tls(adminStore);
        int otherVoter = controllers.keySet().stream().filter(id -> id != leader.nodeId() && id != follower)
                .findFirst().orElseThrow();
        assertDenied(() -> vote(voter2, follower, otherVoter == 2 ? leader.nodeId() : otherVoter, before.epoch() + 1));
        assertDenied(() -> vote(broker4, follower, 1, before.epoch() + 1));
        assertDenied(() -> vote(administrator, follower, 1, before.epoch() + 1));
        assertDenied(() -> announceLeader(broker4, follower, otherVoter, before.epoch() + 1));
        assertDenied(() -> announceLeader(voter2, follower, otherVoter == 2 ? leader.nodeId() : otherVoter,
                before.epoch() + 1));
        assertDenied(() -> fetch(broker4, leader.nodeId(), 99, before.epoch()));
        assertDenied(() -> fetch(administrator, leader.nodeId(), BROKER, before.epoch()));
        assertDenied(() -> register(broker4, leader.nodeId(), 5));
        assertDenied(() -> register(administrator, leader.nodeId(), 5));
        assertDenied(() -> heartbeatAsking(voter2, leader.nodeId(), BROKER, brokerEpoch));
        assertDenied(() -> alterPartition(voter2, leader.nodeId(), BROKER, brokerEpoch));

        // Nothing changed: the same leader and epoch everywhere, no broker 5, broker 4 still serving, no new topic,
        // no observer 99.
        for (ControllerNode controller : controllers.values()) {
            assertEquals(before, controller.controller().leader(), "voter " + controller.nodeId());
        }
        MetadataImage after = leader.controller().image();
        assertNull(after.cluster().broker(5));
        assertFalse(after.cluster().broker(BROKER).fenced());
        assertFalse(after.cluster().broker(BROKER).inControlledShutdown());
        assertEquals(brokerEpoch, after.cluster().broker(BROKER).epoch());
        assertNull(after.topics().topic("intruders"));
        DescribeQuorumResponse quorum = describeQuorum(administrator, leader.nodeId());
        assertEquals(leader.nodeId(), quorum.getLeaderId());
        assertTrue(quorum.getObserversList().stream().map(ReplicaState::getReplicaId).noneMatch(id -> id == 99),
                quorum.toString());
        assertTrue(quorum.getObserversList().stream().map(ReplicaState::getReplicaId).anyMatch(id -> id == BROKER),
                "the broker fetches over TLS: " + quorum);
        // A node's own claims pass: the broker's certificate may create a topic (brokers forward them).
        createTopic(broker4, leader.nodeId(), "forwarded");
        awaitTrue(() -> broker.metadata().image().topics().topic("forwarded") != null, "the broker to see the topic");
    }

    @Test
    @Order(2)
    void aBrokerWhoseCertificateNamesAnotherNodeNeverJoins() throws Exception {
        Map<String, String> props = props(BROKER);
        props.put("listener.name.controller.ssl.keystore.location",
                authority.issue("CN=kraft-node-8,O=kraft-test").toString());
        props.put("log.dirs", dir.resolve("broker-7").resolve("logs").toString());
        BrokerNode misconfigured = BrokerNode.start(7, CLUSTER_ID, dir.resolve("broker-7").resolve("metadata"),
                "PLAINTEXT://localhost:0", props, topicConfigs, faults);
        try {
            // Its registration, heartbeats and metadata fetches are refused for as long as it runs.
            assertThrows(TimeoutException.class, () -> misconfigured.ready().get(5, TimeUnit.SECONDS));
            ControllerNode leader = awaitLeader();
            assertNull(leader.controller().image().cluster().broker(7));
            assertTrue(describeQuorum(tls(adminStore), leader.nodeId()).getObserversList().stream()
                    .noneMatch(observer -> observer.getReplicaId() == 7));
            assertNull(misconfigured.metadata().image().topics().topic("forwarded"), "it fetched no metadata");
        } finally {
            misconfigured.close();
        }
    }

    @Test
    @Order(3)
    void aTlsQuorumServesTheBrokerAndSurvivesLosingItsActiveController() throws Exception {
        awaitLeader();
        admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> broker.metadata().image().topics().topic("orders") != null, "the broker to see orders");
        for (ControllerNode controller : controllers.values()) {
            awaitTrue(() -> controller.controller().image().topics().topic("orders") != null,
                    "voter " + controller.nodeId() + " to replicate orders");
        }

        ControllerNode active = awaitLeader();
        controllers.remove(active.nodeId()).close();
        ControllerNode successor = awaitLeader();
        assertTrue(successor.nodeId() != active.nodeId());
        admin.createTopics(List.of(new NewTopic("payments", 2, (short) 1))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> broker.metadata().image().topics().topic("payments") != null, "the broker to see payments");
        assertTrue(broker.isBrokerUnfenced());
        faults.assertNone();
    }

    /** The leader, once every voter knows it: a voter learns of an election a message later than the leader. */
    private static ControllerNode awaitLeader() {
        awaitTrue(() -> controllers.values().stream().filter(ControllerNode::isQuorumLeader).findFirst()
                .map(leader -> controllers.values().stream()
                        .allMatch(c -> c.controller().leader().equals(leader.controller().leader())))
                .orElse(false), "a quorum leader every voter knows");
        return controllers.values().stream().filter(ControllerNode::isQuorumLeader).findFirst().orElseThrow();
    }

    // ---- calls as an outside client makes them ------------------------------------------------------------

    private interface Call {
        void run() throws Exception;
    }

    /** An outsider's call fails: the TLS handshake (UNAVAILABLE) or the peer check refuses it. */
    private static void assertRefused(String who, Call call) {
        StatusRuntimeException error = assertThrows(StatusRuntimeException.class, call::run, who);
        assertTrue(List.of(Status.Code.UNAVAILABLE, Status.Code.PERMISSION_DENIED, Status.Code.UNAUTHENTICATED)
                .contains(error.getStatus().getCode()), who + ": " + error.getStatus());
    }

    private static void assertDenied(Call call) {
        StatusRuntimeException error = assertThrows(StatusRuntimeException.class, call::run);
        assertEquals(Status.Code.PERMISSION_DENIED, error.getStatus().getCode(), error.getStatus().toString());
    }

    /** TLS trusting the cluster's authority, presenting {@code keyStore}'s certificate (none when null). */
    private static ChannelCredentials tls(Path keyStore) throws Exception {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(trustStore));
        TlsChannelCredentials.Builder builder = TlsChannelCredentials.newBuilder()
                .trustManager(trust.getTrustManagers());
        if (keyStore != null) {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(keyStore), PASSWORD.toCharArray());
            builder.keyManager(keys.getKeyManagers());
        }
        return builder.build();
    }

    private static KeyStore load(Path file) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }

    private static <T> T withChannel(ChannelCredentials credentials, int controllerId,
                                     java.util.function.Function<ManagedChannel, T> call) {
        ControllerNode controller = controllers.get(controllerId);
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", controller.controllerPort(), credentials)
                .build();
        try {
            return call.apply(channel);
        } finally {
            channel.shutdownNow();
        }
    }

    private static void vote(ChannelCredentials credentials, int voter, int candidate, int epoch) {
        withChannel(credentials, voter, channel -> RaftServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS).vote(VoteRequest.newBuilder().setClusterId(CLUSTER_ID)
                        .setCandidateId(candidate).setCandidateEpoch(epoch).setLastOffset(1_000_000)
                        .setLastOffsetEpoch(epoch - 1).setVoterId(voter).build()));
    }

    /** A forged BeginQuorumEpoch: were it accepted, the voter would follow {@code leader} in a new epoch. */
    private static void announceLeader(ChannelCredentials credentials, int voter, int leader, int epoch) {
        withChannel(credentials, voter, channel -> RaftServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS).beginQuorumEpoch(BeginQuorumEpochRequest.newBuilder()
                        .setClusterId(CLUSTER_ID).setLeaderId(leader).setLeaderEpoch(epoch).setVoterId(voter).build()));
    }

    private static void fetch(ChannelCredentials credentials, int leader, int replica, int epoch) {
        withChannel(credentials, leader, channel -> RaftServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS).fetch(FetchRequest.newBuilder().setClusterId(CLUSTER_ID)
                        .setReplicaId(replica).setEpoch(epoch).setFetchOffset(0).setLeaderId(leader).build()));
    }

    private static DescribeQuorumResponse describeQuorum(ChannelCredentials credentials, int controller) {
        return withChannel(credentials, controller, channel -> RaftServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS).describeQuorum(DescribeQuorumRequest.getDefaultInstance()));
    }

    private static void register(ChannelCredentials credentials, int controller, int brokerId) {
        withChannel(credentials, controller, channel -> ControllerServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS).registerBroker(RegisterBrokerRequest.newBuilder()
                        .setClusterId(CLUSTER_ID).setBrokerId(brokerId)
                        .setIncarnationId(Uuid.newBuilder().setMostSignificantBits(7).setLeastSignificantBits(7))
                        .build()));
    }

    private static void createTopic(ChannelCredentials credentials, int controller, String name) {
        int error = withChannel(credentials, controller, channel -> ControllerServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(10, TimeUnit.SECONDS).createTopics(CreateTopicsRequest.newBuilder()
                        .addTopics(CreatableTopic.newBuilder().setName(name).setNumPartitions(1)
                                .setReplicationFactor(1)).build())).getTopics(0).getErrorCode();
        assertEquals(0, error, "creating " + name);
    }

    private static void alterPartition(ChannelCredentials credentials, int controller, int brokerId, long epoch) {
        withChannel(credentials, controller, channel -> ControllerServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS).alterPartition(AlterPartitionRequest.newBuilder()
                        .setBrokerId(brokerId).setBrokerEpoch(epoch).build()));
    }

    /** A heartbeat asking for the broker's controlled shutdown: were it accepted, the broker would be fenced. */
    private static void heartbeatAsking(ChannelCredentials credentials, int controller, int brokerId, long epoch)
            throws Exception {
        CompletableFuture<BrokerHeartbeatResponse> answer = new CompletableFuture<>();
        withChannel(credentials, controller, channel -> {
            StreamObserver<BrokerHeartbeatRequest> requests = ControllerServiceGrpc.newStub(channel)
                    .withDeadlineAfter(5, TimeUnit.SECONDS).brokerHeartbeat(observer(answer::complete,
                            answer::completeExceptionally));
            requests.onNext(BrokerHeartbeatRequest.newBuilder().setBrokerId(brokerId).setBrokerEpoch(epoch)
                    .setWantShutDown(true).build());
            try {
                return answer.get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                throw (RuntimeException) e.getCause();
            } catch (Exception e) {
                throw new AssertionError(e);
            } finally {
                requests.onCompleted();
            }
        });
    }

    private static <T> StreamObserver<T> observer(Consumer<T> onNext, Consumer<Throwable> onError) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                onNext.accept(value);
            }

            @Override
            public void onError(Throwable t) {
                onError.accept(t);
            }

            @Override
            public void onCompleted() {
            }
        };
    }
}
