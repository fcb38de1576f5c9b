package io.kraft.broker.node;

import static io.kraft.broker.TestWaits.freePort;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * An in-process combined node (Raft, controller, broker) with its logs and metadata under one directory, on
 * fixed free ports so it can be closed and started again as the same node, with an Admin client.
 */
final class DataPathNode implements AutoCloseable {
    static final String CLUSTER_ID = "RGF0YVBhdGhOb2RlVGVzdA";
    static final long WAIT_MS = 30_000;

    private final Path dir;
    private final Map<String, String> properties = new HashMap<>();
    private final int clientPort;
    private CombinedNode node;
    private Admin admin;

    DataPathNode(Path dir) throws IOException {
        this.dir = dir;
        this.clientPort = freePort();
        properties.put("controller.quorum.voters", "1@localhost:" + freePort());
        properties.put(LogConfigs.LOG_DIRS, dir.resolve("logs").toString());
    }

    DataPathNode start() throws Exception {
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(LogConfigs.definition()
                .parse(Map.of(LogConfigs.LOG_DIRS, properties.get(LogConfigs.LOG_DIRS)), ConfigSource.STATIC_BROKER_CONFIG)));
        node = CombinedNode.start(1, CLUSTER_ID, dir.resolve("metadata"), "PLAINTEXT://localhost:" + clientPort,
                properties, topicConfigs);
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!node.isBrokerUnfenced()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("the broker was not unfenced within " + WAIT_MS + " ms");
            }
            Thread.sleep(20);
        }
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        return this;
    }

    String bootstrap() {
        return "localhost:" + clientPort;
    }

    void createTopic(String name, int partitions, Map<String, String> configs) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all()
                .get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    /** Closes the node cleanly (logs flushed, checkpoints and clean-shutdown markers written). */
    void stop() {
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
