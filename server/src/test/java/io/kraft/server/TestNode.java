package io.kraft.server;

import static io.kraft.broker.TestWaits.freePort;

import io.kraft.broker.TestWaits;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.server.CombinedNode;
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
 * An in-process combined node (Raft, controller, broker) with its logs and metadata under one directory, on fixed
 * free ports so it can be closed and started again as the same node, with an Admin client. Its metadata log is in
 * {@code <dir>/metadata} unless {@code metadata.log.dir} names another directory (a log directory, say).
 */
public final class TestNode implements AutoCloseable {
    public static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
    public static final long WAIT_MS = TestWaits.WAIT_MS;

    private final Path dir;
    private final Map<String, String> properties;
    private final int clientPort;
    private CombinedNode node;
    private Admin admin;
    private final TestFaultHandler faults = new TestFaultHandler();

    /** @param extraProperties node properties besides the quorum (e.g. log.retention.hours) */
    public TestNode(Path dir, Map<String, String> extraProperties) throws IOException {
        this.dir = dir;
        this.clientPort = freePort();
        this.properties = new HashMap<>(extraProperties);
        properties.put("controller.quorum.voters", "1@localhost:" + freePort());
        properties.putIfAbsent("log.dirs", dir.resolve("logs").toString());
    }

    public TestNode start() throws Exception {
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG)));
        Path metadataLogDir = Path.of(properties.getOrDefault("metadata.log.dir", dir.resolve("metadata").toString()));
        node = CombinedNode.start(1, CLUSTER_ID, metadataLogDir, "PLAINTEXT://localhost:" + clientPort, properties,
                topicConfigs, faults);
        node.ready().get(WAIT_MS, TimeUnit.MILLISECONDS);
        admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        return this;
    }

    /** A clean restart: close everything, start again on the same directory and ports. */
    public void restart() throws Exception {
        stop();
        start();
    }

    /** The running node. */
    public CombinedNode node() {
        return node;
    }

    public Admin admin() {
        return admin;
    }

    public int port() {
        return clientPort;
    }

    /** The port of the CONTROLLER listener (Raft and the controller's gRPC service). */
    public int controllerPort() {
        String voters = properties.get("controller.quorum.voters");
        return Integer.parseInt(voters.substring(voters.lastIndexOf(':') + 1));
    }

    public String bootstrap() {
        return "localhost:" + clientPort;
    }

    /** Creates a topic with replication factor 1 and the given configs. */
    public void createTopic(String name, int partitions, Map<String, String> configs) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all()
                .get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    /** Closes the node cleanly (logs flushed, checkpoints and clean-shutdown markers written). */
    public void stop() {
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
        faults.assertNone();
    }
}
