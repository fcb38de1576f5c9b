package io.kraft.cli;

import static org.awaitility.Awaitility.await;

import io.kraft.broker.TestWaits;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.server.BrokerNode;
import io.kraft.server.CombinedNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** An in-process combined node on free ports for the client commands to talk to. */
final class ClientNode implements AutoCloseable {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
    private static final long WAIT_MS = 30_000;

    private final CombinedNode node;
    private final Path logDir;
    private final Map<String, String> properties;
    private final TopicConfigResolver topicConfigs;
    /** Faults the nodes hit: recorded (the test fails on close) rather than stopping the test JVM. */
    private final List<String> faults = new CopyOnWriteArrayList<>();
    private final FaultHandler faultHandler = (message, cause) -> faults.add(message);

    ClientNode(Path dir) throws Exception {
        this(dir, Map.of());
    }

    /** @param extraProperties node properties besides the quorum and log directory (e.g. authorizer.class.name) */
    ClientNode(Path dir, Map<String, String> extraProperties) throws Exception {
        logDir = dir.resolve("logs");
        // No initial rebalance delay: a console consumer is the group's only member.
        Map<String, String> all = new java.util.HashMap<>(extraProperties);
        all.put("controller.quorum.voters", "1@localhost:" + freePort());
        all.putIfAbsent("log.dirs", dir.resolve("logs").toString());
        all.put("group.initial.rebalance.delay.ms", "0");
        properties = Map.copyOf(all);
        topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of("log.dirs", dir.resolve("logs").toString()),
                        ConfigSource.STATIC_BROKER_CONFIG)));
        node = CombinedNode.start(1, CLUSTER_ID, dir.resolve("metadata"), "PLAINTEXT://localhost:" + freePort(),
                properties, topicConfigs, faultHandler);
        try {
            await("the broker to be unfenced").atMost(Duration.ofMillis(WAIT_MS)).pollInterval(Duration.ofMillis(20))
                    .until(node::isBrokerUnfenced);
        } catch (RuntimeException | Error e) {
            node.close();
            throw e;
        }
    }

    /** The --bootstrap-server value. */
    String bootstrap() {
        return "localhost:" + node.clientPort();
    }

    /** Starts a broker-only node {@code nodeId} in {@code dir} that joins this node's cluster; close it to stop it. */
    BrokerNode startBroker(int nodeId, Path dir) throws Exception {
        Map<String, String> brokerProperties = new java.util.HashMap<>(properties);
        brokerProperties.put("log.dirs", dir.resolve("logs").toString());
        BrokerNode broker = BrokerNode.start(nodeId, CLUSTER_ID, dir.resolve("metadata"),
                "PLAINTEXT://localhost:" + freePort(), brokerProperties, topicConfigs, faultHandler);
        await("broker " + nodeId + " to be unfenced").atMost(Duration.ofMillis(WAIT_MS))
                .pollInterval(Duration.ofMillis(20)).until(broker::isBrokerUnfenced);
        return broker;
    }

    /** The node's one log directory. */
    Path logDir() {
        return logDir;
    }

    @Override
    public void close() {
        node.close();
        if (!faults.isEmpty()) {
            throw new AssertionError("a node would have stopped its process: " + faults);
        }
    }

    /** A port no other part of this test JVM was given, below the kernel's ephemeral range. */
    private static int freePort() throws Exception {
        return TestWaits.freePort();
    }
}
