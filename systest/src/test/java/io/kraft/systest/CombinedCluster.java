package io.kraft.systest;

import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.controller.ClusterFeatures;
import io.kraft.storage.MetaProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A cluster of combined nodes (broker and controller in one process, every node a voter), or of dedicated controllers
 * and brokers, launched as real {@code kraft-cli start} processes through a {@link ProcessRegistry}: formatted as
 * {@code kraft-cli format} would, started, killed with kill -9 and restarted by node id. Node ids are 1..size (the
 * controllers first).
 */
final class CombinedCluster {
    private static final Pattern ACTIVE = Pattern.compile("Controller (\\d+) is active in epoch (\\d+)");

    private final ProcessRegistry processes;
    private final Duration wait;
    private final Map<Integer, NodeConfigFile> nodes = new TreeMap<>();
    private final Map<Integer, Path> configFiles = new TreeMap<>();
    private final Map<Integer, JvmProcess> running = new TreeMap<>();
    /** Every incarnation of each node, so the active-controller search can read the logs of the dead ones too. */
    private final List<JvmProcess> launched = new ArrayList<>();
    /** The nodes with a broker (all of a combined cluster). */
    private final List<Integer> brokerIds = new ArrayList<>();
    private int launches;

    /**
     * Configures and formats {@code size} combined nodes under {@code dataDir}; {@code adjust} may add keys to each
     * node's file.
     */
    CombinedCluster(ProcessRegistry processes, Path dataDir, int size, Duration wait, UnaryOperator<NodeConfigFile> adjust) {
        this(processes, dataDir, size, 0, wait, adjust, true);
    }

    /**
     * Configures and formats {@code controllers} dedicated controllers (ids 1..controllers) and {@code brokers}
     * dedicated brokers after them; {@code adjust} may add keys to each node's file.
     */
    static CombinedCluster dedicated(ProcessRegistry processes, Path dataDir, int controllers, int brokers,
                                     Duration wait, UnaryOperator<NodeConfigFile> adjust) {
        return new CombinedCluster(processes, dataDir, controllers, brokers, wait, adjust, false);
    }

    private CombinedCluster(ProcessRegistry processes, Path dataDir, int voterCount, int brokerCount, Duration wait,
                            UnaryOperator<NodeConfigFile> adjust, boolean combined) {
        this.processes = processes;
        this.wait = wait;
        List<NodeConfigFile> voters = new ArrayList<>();
        for (int id = 1; id <= voterCount + brokerCount; id++) {
            Path nodeDir = dataDir.resolve("node-" + id);
            NodeConfigFile node = adjust.apply(combined ? NodeConfigFile.combined(id, nodeDir)
                    : id <= voterCount ? NodeConfigFile.controller(id, nodeDir) : NodeConfigFile.broker(id, nodeDir));
            if (id <= voterCount) {
                voters.add(node);
            } else {
                brokerIds.add(id);
            }
            nodes.put(id, node);
        }
        if (combined) {
            brokerIds.addAll(nodes.keySet());
        }
        nodes.values().forEach(node -> node.voters(voters));
        // What 'kraft-cli format' writes (its own tests cover the command), without more JVM launches.
        String clusterId = MetaProperties.randomUuid();
        nodes.forEach((id, node) -> {
            configFiles.put(id, node.write());
            node.directories().forEach(directory -> MetaProperties.forNewDirectory(clusterId, id).write(directory));
            node.metadataLogDir().ifPresent(CombinedCluster::writeDefaultFeatures);
        });
    }

    /** The feature levels format finalizes for a new cluster (transaction.version 2, say). */
    private static void writeDefaultFeatures(Path metadataLogDir) {
        try {
            BootstrapMetadata.write(metadataLogDir, ClusterFeatures.levelRecords(ClusterFeatures.FORMAT_DEFAULTS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Integer> nodeIds() {
        return List.copyOf(nodes.keySet());
    }

    /** Launches every node, then waits until each is ready and its broker unfenced. */
    void startAll() {
        nodes.keySet().forEach(this::launch);
        nodes.keySet().forEach(this::awaitStarted);
    }

    /** Launches a (killed) node again and waits until it is ready and its broker unfenced. */
    void restart(int nodeId) {
        launch(nodeId);
        awaitStarted(nodeId);
    }

    /** kill -9 of one node. */
    void kill(int nodeId) {
        running.get(nodeId).kill(wait);
    }

    JvmProcess process(int nodeId) {
        return running.get(nodeId);
    }

    int controllerPort(int nodeId) {
        return nodes.get(nodeId).controllerPort();
    }

    int brokerPort(int nodeId) {
        return nodes.get(nodeId).brokerPort();
    }

    String bootstrap() {
        return brokerIds.stream().map(id -> "127.0.0.1:" + nodes.get(id).brokerPort()).collect(Collectors.joining(","));
    }

    /** The live node that most recently became the active controller (the highest epoch any node logged). */
    int activeController() {
        long deadlineNanos = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() - deadlineNanos < 0) {
            int best = -1;
            long bestEpoch = -1;
            for (JvmProcess process : launched) {
                Matcher matcher = ACTIVE.matcher(process.stderr());
                while (matcher.find()) {
                    long epoch = Long.parseLong(matcher.group(2));
                    if (epoch > bestEpoch) {
                        bestEpoch = epoch;
                        best = Integer.parseInt(matcher.group(1));
                    }
                }
            }
            if (best > 0 && running.get(best).isAlive()) {
                return best;
            }
            sleep(100);
        }
        throw new AssertionError("no live node logged that its controller is active");
    }

    /** An Admin client with short timeouts and backoffs, so that it moves on from a killed node quickly. */
    Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000",
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200"));
    }

    private void launch(int nodeId) {
        launches++;
        // The node logs carry timestamps, to tell where the time of each phase went.
        JvmProcess process = processes.start(JvmSpec.kraftCli("node-" + nodeId + "-run-" + launches, "start",
                "--config", configFiles.get(nodeId).toString()));
        running.put(nodeId, process);
        launched.add(process);
    }

    private void awaitStarted(int nodeId) {
        JvmProcess process = running.get(nodeId);
        process.waitForLogLine("kraft node " + nodeId + " ready", wait);
        if (brokerIds.contains(nodeId)) {
            process.waitForLogLine("Broker " + nodeId + " is unfenced", wait);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
