package io.kraft.broker.group;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;

import io.kraft.broker.node.CombinedNode;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * An in-process combined node for group tests: free ports, its data under one directory, restartable on both,
 * an Admin client, and group settings suited to tests (no initial rebalance delay, few offsets partitions).
 */
final class GroupTestNode implements AutoCloseable {
    static final String CLUSTER_ID = "R3JvdXBUZXN0Q2x1c3Rlcg";
    static final long WAIT_MS = 30_000;

    private final Path dir;
    private final Map<String, String> properties = new HashMap<>();
    private final int clientPort;
    private CombinedNode node;
    private Admin admin;

    GroupTestNode(Path dir, Map<String, String> extraProperties) throws IOException {
        this.dir = dir;
        this.clientPort = freePort();
        properties.put("controller.quorum.voters", "1@localhost:" + freePort());
        properties.put("log.dirs", dir.resolve("logs").toString());
        properties.put(GroupConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0");
        properties.put(GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "5");
        properties.putAll(extraProperties);
    }

    GroupTestNode start() throws Exception {
        Map<String, String> logKeys = new HashMap<>();
        properties.forEach((key, value) -> {
            if (LogConfigs.definition().contains(key)) {
                logKeys.put(key, value);
            }
        });
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(logKeys, ConfigSource.STATIC_BROKER_CONFIG)));
        node = CombinedNode.start(1, CLUSTER_ID, dir.resolve("metadata"), "PLAINTEXT://localhost:" + clientPort,
                properties, topicConfigs);
        awaitTrue(node::isBrokerUnfenced, "the broker to be unfenced");
        admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        return this;
    }

    /** A clean restart: close everything, start again on the same directory and ports. */
    void restart() throws Exception {
        stop();
        start();
    }

    Admin admin() {
        return admin;
    }

    int port() {
        return clientPort;
    }

    String bootstrap() {
        return "localhost:" + clientPort;
    }

    private void stop() {
        if (admin != null) {
            admin.close();
            admin = null;
        }
        if (node != null) {
            node.close();
            node = null;
        }
    }

    @Override
    public void close() {
        stop();
    }
}
