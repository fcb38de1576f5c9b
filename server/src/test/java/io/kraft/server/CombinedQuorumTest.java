package io.kraft.server;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.kraft.broker.network.TestCertificateAuthority;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.proto.raft.DescribeQuorumRequest;
import io.kraft.proto.raft.RaftServiceGrpc;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three combined nodes forming one quorum: each broker reaches whichever voter is active over gRPC (not only its
 * own controller), so all three register, and the two that remain keep serving when the active one stops.
 */
class CombinedQuorumTest {
    private static final String CLUSTER_ID = "Q29tYmluZWRRdW9ydW1UZXN0";
    private static final long WAIT_MS = 30_000;

    @TempDir
    Path dir;

    private final Map<Integer, CombinedNode> nodes = new TreeMap<>();
    private final TestFaultHandler faults = new TestFaultHandler();

    /** Closes the nodes together: one by one, the last would wait out its controlled shutdown without a quorum. */
    @AfterEach
    void stop() {
        nodes.values().stream().map(node -> CompletableFuture.runAsync(node::close)).toList()
                .forEach(CompletableFuture::join);
    }

    @Test
    void everyBrokerRegistersWithTheActiveControllerAndTheQuorumOutlivesIt() throws Exception {
        registerEverywhereAndOutliveTheActiveController(id -> Map.of());
    }

    /** The same with the control plane on mutual TLS: each node's broker calls the others with its certificate. */
    @Test
    void theSameOverAControlPlaneOfMutualTls() throws Exception {
        TestCertificateAuthority authority = TestCertificateAuthority.create(dir.resolve("ca"), "CN=test-ca");
        Map<Integer, Map<String, String>> tls = new TreeMap<>();
        for (int id = 1; id <= 3; id++) {
            tls.put(id, authority.controlPlaneProperties(authority.issue("CN=kraft-node-" + id)));
        }
        registerEverywhereAndOutliveTheActiveController(tls::get);
        // Nothing on the control plane answers plaintext.
        CombinedNode survivor = nodes.values().iterator().next();
        ManagedChannel plaintext = Grpc.newChannelBuilderForAddress("localhost", survivor.controllerPort(),
                InsecureChannelCredentials.create()).build();
        try {
            assertThrows(StatusRuntimeException.class, () -> RaftServiceGrpc.newBlockingStub(plaintext)
                    .withDeadlineAfter(5, TimeUnit.SECONDS).describeQuorum(DescribeQuorumRequest.getDefaultInstance()));
        } finally {
            plaintext.shutdownNow();
        }
    }

    private void registerEverywhereAndOutliveTheActiveController(IntFunction<Map<String, String>> extraProperties)
            throws Exception {
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        String voters = "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort();
        for (int id = 1; id <= 3; id++) {
            Map<String, String> properties = new HashMap<>(Map.of("controller.quorum.voters", voters,
                    "log.dirs", dir.resolve("node-" + id).resolve("logs").toString()));
            properties.putAll(extraProperties.apply(id));
            nodes.put(id, CombinedNode.start(id, CLUSTER_ID, dir.resolve("node-" + id).resolve("metadata"),
                    "PLAINTEXT://localhost:0", properties, topicConfigs, faults));
        }
        for (CombinedNode node : nodes.values()) {
            awaitTrue(node::isBrokerUnfenced, "broker " + node.nodeId() + " to be unfenced");
        }

        try (Admin admin = admin(nodes.get(1).clientPort())) {
            admin.createTopics(List.of(new NewTopic("spread", 3, (short) 3))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        int stopped = nodes.keySet().stream().filter(id -> nodes.get(id).isQuorumLeader()).findFirst()
                .orElseThrow();
        nodes.remove(stopped).close();

        int survivor = nodes.keySet().iterator().next();
        try (Admin admin = admin(nodes.get(survivor).clientPort())) {
            admin.createTopics(List.of(new NewTopic("after", 2, (short) 2))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
            assertEquals(3, admin.describeTopics(List.of("spread")).allTopicNames().get(WAIT_MS, TimeUnit.MILLISECONDS)
                    .get("spread").partitions().size());
        }
        assertTrue(nodes.values().stream().allMatch(CombinedNode::isBrokerUnfenced),
                "the remaining brokers stay unfenced across the controller failover");
        faults.assertNone();
    }

    private static Admin admin(int port) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + port,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
    }
}
