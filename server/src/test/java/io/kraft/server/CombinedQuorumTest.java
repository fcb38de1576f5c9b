package io.kraft.server;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

    /** Closes the nodes together: one by one, the last would wait out its controlled shutdown without a quorum. */
    @AfterEach
    void stop() {
        nodes.values().stream().map(node -> CompletableFuture.runAsync(node::close)).toList()
                .forEach(CompletableFuture::join);
    }

    @Test
    void everyBrokerRegistersWithTheActiveControllerAndTheQuorumOutlivesIt() throws Exception {
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        String voters = "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort();
        for (int id = 1; id <= 3; id++) {
            Map<String, String> properties = new HashMap<>(Map.of("controller.quorum.voters", voters,
                    "log.dirs", dir.resolve("node-" + id).resolve("logs").toString()));
            nodes.put(id, CombinedNode.start(id, CLUSTER_ID, dir.resolve("node-" + id).resolve("metadata"),
                    "PLAINTEXT://localhost:0", properties, topicConfigs));
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
    }

    private static Admin admin(int port) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + port,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
    }
}
