package io.kraft.testkit;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.server.BrokerNode;
import io.kraft.server.CombinedNode;
import io.kraft.server.ControllerNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One node of a {@link KraftCluster}: its id, role, directory and ports, fixed for the cluster's life so that a
 * restarted node is the same node at the same address, and the running node while it runs.
 */
final class EmbeddedNode {
    private final int id;
    private final NodeRole role;
    private final Path dir;
    private final int clientPort;
    private final Map<String, String> properties;
    private AutoCloseable running;
    private CompletableFuture<Void> ready = CompletableFuture.completedFuture(null);

    /** @param clientPort the Kafka listener's port, unused by a controller */
    EmbeddedNode(int id, NodeRole role, Path dir, int clientPort, Map<String, String> properties) {
        this.id = id;
        this.role = role;
        this.dir = dir;
        this.clientPort = clientPort;
        this.properties = Map.copyOf(properties);
    }

    int id() {
        return id;
    }

    NodeRole role() {
        return role;
    }

    boolean servesClients() {
        return role != NodeRole.CONTROLLER;
    }

    String clientAddress() {
        return "localhost:" + clientPort;
    }

    boolean isRunning() {
        return running != null;
    }

    /** Starts the node on its directory and ports; {@link #ready()} completes once it serves clients. */
    void start(String clusterId, FaultHandler faults) throws InterruptedException {
        if (running != null) {
            throw new IllegalStateException("node " + id + " is running");
        }
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG)));
        Path metadata = dir.resolve("metadata");
        String listener = "PLAINTEXT://localhost:" + clientPort;
        switch (role) {
            case COMBINED -> {
                CombinedNode node = CombinedNode.start(id, clusterId, metadata, listener, properties, topicConfigs,
                        faults);
                running = node;
                ready = node.ready();
            }
            case BROKER -> {
                BrokerNode node = BrokerNode.start(id, clusterId, metadata, listener, properties, topicConfigs, faults);
                running = node;
                ready = node.ready();
            }
            case CONTROLLER -> {
                running = ControllerNode.start(id, clusterId, metadata, properties, topicConfigs, faults);
                ready = CompletableFuture.completedFuture(null);
            }
        }
    }

    /** Completes once the node serves Kafka clients (registered and unfenced); at once for a controller. */
    CompletableFuture<Void> ready() {
        return ready;
    }

    /** A clean shutdown: controlled shutdown of the broker, logs flushed and marked clean. */
    void stop() throws Exception {
        AutoCloseable node = running;
        running = null;
        if (node != null) {
            node.close();
        }
    }

    /** A stop as a crash would leave things; see {@link KraftCluster#kill(int)}. */
    void kill() throws Exception {
        AutoCloseable node = running;
        running = null;
        if (node instanceof CombinedNode combined) {
            combined.kill();
        } else if (node instanceof BrokerNode broker) {
            broker.kill();
        } else if (node != null) {
            node.close();
        }
    }
}
