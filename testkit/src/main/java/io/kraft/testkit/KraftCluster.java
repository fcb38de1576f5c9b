package io.kraft.testkit;

import io.kraft.storage.MetaProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A kraft cluster inside the test's JVM: one or more nodes, combined (broker and controller) or split into dedicated
 * controllers and brokers, on free ports of localhost and in a temporary directory that {@link #close()} deletes.
 * Nodes can be stopped, killed and restarted on the same ports and data. Not thread-safe: one test drives it.
 *
 * <pre>{@code
 * try (KraftCluster cluster = KraftCluster.builder().nodes(3).start()) {
 *     producerProps.put("bootstrap.servers", cluster.bootstrapServers());
 * }
 * }</pre>
 *
 * Node ids: combined nodes are 1..N; in a split cluster brokers are 1..B and controllers 3001..3000+C.
 */
public final class KraftCluster implements AutoCloseable {
    /** The first id of a dedicated controller, kept apart from broker ids as Kafka's own test clusters do. */
    public static final int FIRST_CONTROLLER_ID = 3001;

    private final Map<Integer, EmbeddedNode> nodes;
    private final String clusterId;
    private final Path dir;
    private final boolean ownsDir;
    private final Duration readyTimeout;
    private final FaultRecorder faults = new FaultRecorder();
    private boolean closed;

    private KraftCluster(Map<Integer, EmbeddedNode> nodes, String clusterId, Path dir, boolean ownsDir,
                         Duration readyTimeout) {
        this.nodes = nodes;
        this.clusterId = clusterId;
        this.dir = dir;
        this.ownsDir = ownsDir;
        this.readyTimeout = readyTimeout;
    }

    /** A builder of a cluster of one combined node, until told otherwise. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts every node that is not running and waits until each broker serves clients (registered and unfenced).
     *
     * @throws IllegalStateException if the nodes are not ready within the builder's ready timeout
     */
    public KraftCluster start() {
        // Voters first, together (a quorum elects once a majority runs); then the brokers, together.
        List<EmbeddedNode> voters = nodes.values().stream().filter(node -> node.role() != NodeRole.BROKER).toList();
        List<EmbeddedNode> brokers = nodes.values().stream().filter(node -> node.role() == NodeRole.BROKER).toList();
        try {
            startTogether(voters);
            startTogether(brokers);
            awaitReady(List.copyOf(nodes.values()));
        } catch (RuntimeException e) {
            closeQuietly(e);
            throw e;
        }
        return this;
    }

    /** "localhost:port,..." of every running node that serves Kafka clients: the clients' bootstrap.servers. */
    public String bootstrapServers() {
        return nodes.values().stream().filter(node -> node.servesClients() && node.isRunning())
                .map(EmbeddedNode::clientAddress).collect(Collectors.joining(","));
    }

    /** The address of node {@code id}'s Kafka listener, running or not. */
    public String bootstrapServers(int id) {
        EmbeddedNode node = node(id);
        if (!node.servesClients()) {
            throw new IllegalArgumentException("node " + id + " is a controller: it has no Kafka listener");
        }
        return node.clientAddress();
    }

    /** The cluster's id (what clients see as cluster.id). */
    public String clusterId() {
        return clusterId;
    }

    /** The ids of every node, in order. */
    public List<Integer> nodeIds() {
        return List.copyOf(nodes.keySet());
    }

    /** The ids of the nodes that serve Kafka clients (combined nodes and brokers). */
    public List<Integer> brokerIds() {
        return nodes.values().stream().filter(EmbeddedNode::servesClients).map(EmbeddedNode::id).toList();
    }

    /** Whether node {@code id} runs. */
    public boolean isRunning(int id) {
        return node(id).isRunning();
    }

    /** Where the cluster's nodes keep their data ({@code node-<id>/logs} and {@code node-<id>/metadata}). */
    public Path directory() {
        return dir;
    }

    /** Stops node {@code id} cleanly: a broker's controlled shutdown, logs flushed and marked clean. */
    public void stop(int id) throws Exception {
        node(id).stop();
    }

    /**
     * Stops node {@code id} as a crash would leave it, as far as a node sharing the test's JVM can: its broker does no
     * controlled shutdown (the controller fences it once its session, broker.session.timeout.ms, runs out, and only then
     * moves its leaderships), and its logs are left without checkpoints or clean-shutdown markers, so a restart
     * recovers them as after a crash. What was written stays in the operating system's page cache, so unlike a
     * power loss nothing written is lost; what acks=all acknowledged is on the other replicas anyway.
     */
    public void kill(int id) throws Exception {
        node(id).kill();
    }

    /** Stops node {@code id} cleanly if it runs, starts it again on the same ports and data, and waits until ready. */
    public void restart(int id) throws Exception {
        EmbeddedNode node = node(id);
        node.stop();
        startNode(node);
        awaitReady(List.of(node));
    }

    /** Starts node {@code id} again after {@link #stop} or {@link #kill} and waits until it serves clients. */
    public void start(int id) throws Exception {
        EmbeddedNode node = node(id);
        startNode(node);
        awaitReady(List.of(node));
    }

    /**
     * Stops every node and deletes the temporary directory: as {@link #kill} when the data is deleted, cleanly (brokers
     * first) when the builder named a directory to keep.
     *
     * @throws AssertionError if a node hit a fault (it would have stopped its process), naming it
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(null);
        List<String> recorded = faults.faults();
        if (!recorded.isEmpty()) {
            throw new AssertionError("a kraft node would have stopped its process: " + recorded);
        }
    }

    private void closeQuietly(RuntimeException cause) {
        closed = true;
        // Brokers first, so their controlled shutdowns still find a controller.
        List<EmbeddedNode> order = new ArrayList<>(nodes.values());
        order.sort(Comparator.comparing(node -> node.role() != NodeRole.BROKER));
        for (EmbeddedNode node : order) {
            try {
                // Data about to be deleted needs no clean shutdown; and the last combined nodes' controlled shutdowns
                // would each wait out their timeout once the quorum has lost its majority.
                if (ownsDir) {
                    node.kill();
                } else {
                    node.stop();
                }
            } catch (Exception e) {
                if (cause != null) {
                    cause.addSuppressed(e);
                }
            }
        }
        if (ownsDir) {
            deleteRecursively(dir);
        }
    }

    private EmbeddedNode node(int id) {
        EmbeddedNode node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("no node " + id + " in this cluster (nodes " + nodes.keySet() + ")");
        }
        return node;
    }

    private void startNode(EmbeddedNode node) {
        try {
            node.start(clusterId, faults);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting node " + node.id(), e);
        }
    }

    /** Starts the nodes that are not running, each on its own thread, and returns once every start returned. */
    private void startTogether(List<EmbeddedNode> group) {
        List<Thread> threads = new ArrayList<>();
        List<RuntimeException> failures = new CopyOnWriteArrayList<>();
        for (EmbeddedNode node : group) {
            if (node.isRunning()) {
                continue;
            }
            Thread thread = new Thread(() -> {
                try {
                    startNode(node);
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }, "kraft-testkit-start-" + node.id());
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting the cluster", e);
            }
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    private void awaitReady(List<EmbeddedNode> started) {
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        for (EmbeddedNode node : started) {
            try {
                node.ready().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("node " + node.id() + " did not serve clients within " + readyTimeout
                        + (faults.faults().isEmpty() ? "" : "; faults: " + faults.faults()), e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("node " + node.id() + " could not start: " + e.getCause(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for node " + node.id(), e);
            }
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root + ": " + e.getMessage(), e);
        }
    }

    /** What a cluster is made of; {@link #start()} builds and starts it. */
    public static final class Builder {
        private int combined = 1;
        private int controllers;
        private int brokers;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private Path directory;
        private Duration readyTimeout = Duration.ofSeconds(60);

        private Builder() {
        }

        /** {@code count} combined nodes (broker and controller each); the quorum is all of them. */
        public Builder nodes(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("a cluster needs at least one node, not " + count);
            }
            combined = count;
            controllers = 0;
            brokers = 0;
            return this;
        }

        /** {@code controllerCount} dedicated controllers (the quorum) and {@code brokerCount} dedicated brokers. */
        public Builder split(int controllerCount, int brokerCount) {
            if (controllerCount < 1 || brokerCount < 1) {
                throw new IllegalArgumentException("a split cluster needs a controller and a broker, not "
                        + controllerCount + " and " + brokerCount);
            }
            combined = 0;
            controllers = controllerCount;
            brokers = brokerCount;
            return this;
        }

        /** A property of every node, by Kafka's name (e.g. {@code auto.create.topics.enable=false}). */
        public Builder property(String key, String value) {
            properties.put(key, value);
            return this;
        }

        /** Several properties of every node; see {@link #property}. */
        public Builder properties(Map<String, String> more) {
            properties.putAll(more);
            return this;
        }

        /** Keeps the nodes' data under {@code parent} (left in place on close) instead of a deleted temp directory. */
        public Builder directory(Path parent) {
            directory = parent;
            return this;
        }

        /** How long {@code start} and {@code restart} wait for the brokers to serve clients (default 60 s). */
        public Builder readyTimeout(Duration timeout) {
            readyTimeout = timeout;
            return this;
        }

        /** Builds the cluster and starts it; see {@link KraftCluster#start()}. */
        public KraftCluster start() {
            return build().start();
        }

        /** Builds the cluster without starting it (ports and directories are chosen now). */
        public KraftCluster build() {
            Path dir;
            try {
                dir = directory != null ? Files.createDirectories(directory) : Files.createTempDirectory("kraft-testkit-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the cluster's directory: " + e.getMessage(), e);
            }
            Map<Integer, NodeRole> roles = new LinkedHashMap<>();
            for (int i = 1; i <= combined; i++) {
                roles.put(i, NodeRole.COMBINED);
            }
            for (int i = 1; i <= brokers; i++) {
                roles.put(i, NodeRole.BROKER);
            }
            for (int i = 0; i < controllers; i++) {
                roles.put(FIRST_CONTROLLER_ID + i, NodeRole.CONTROLLER);
            }
            List<Integer> ports = FreePorts.take(roles.size() * 2);
            StringBuilder voters = new StringBuilder();
            Map<Integer, Integer> clientPorts = new HashMap<>();
            int next = 0;
            for (Map.Entry<Integer, NodeRole> node : roles.entrySet()) {
                clientPorts.put(node.getKey(), ports.get(next++));
                int controllerPort = ports.get(next++);
                if (node.getValue() != NodeRole.BROKER) {
                    voters.append(voters.isEmpty() ? "" : ",").append(node.getKey()).append("@localhost:")
                            .append(controllerPort);
                }
            }
            int brokerCount = combined + brokers;
            int voterCount = combined + controllers;
            Map<Integer, EmbeddedNode> nodes = new LinkedHashMap<>();
            for (Map.Entry<Integer, NodeRole> node : roles.entrySet()) {
                Path nodeDir = dir.resolve("node-" + node.getKey());
                Map<String, String> own = new HashMap<>(testDefaults(brokerCount, voterCount));
                own.putAll(properties);
                own.put("controller.quorum.voters", voters.toString());
                own.put("log.dirs", nodeDir.resolve("logs").toString());
                nodes.put(node.getKey(), new EmbeddedNode(node.getKey(), node.getValue(), nodeDir,
                        clientPorts.get(node.getKey()), own));
            }
            return new KraftCluster(nodes, MetaProperties.randomUuid(), dir, directory == null, readyTimeout);
        }

        /**
         * Settings a test cluster wants unless told otherwise: internal topics replicated as widely as the brokers
         * allow, groups that start without the 3 s wait for more members, and a quorum of several voters that holds
         * its first election after 150 ms instead of 1 s (a lone voter elects itself at once anyway).
         */
        private static Map<String, String> testDefaults(int brokerCount, int voterCount) {
            String replicas = Integer.toString(Math.min(3, brokerCount));
            Map<String, String> defaults = new HashMap<>(Map.of("offsets.topic.replication.factor", replicas,
                    "transaction.state.log.replication.factor", replicas,
                    "transaction.state.log.min.isr", Integer.toString(Math.min(2, brokerCount)),
                    "group.initial.rebalance.delay.ms", "0"));
            if (voterCount > 1) {
                defaults.put("controller.quorum.election.timeout.ms", "150");
                defaults.put("controller.quorum.election.backoff.max.ms", "150");
            }
            return defaults;
        }
    }

    /** Free ports of localhost, distinct within one call. */
    static final class FreePorts {
        private FreePorts() {
        }

        static List<Integer> take(int count) {
            Set<Integer> taken = new HashSet<>();
            List<ServerSocket> open = new ArrayList<>();
            try {
                // All held open together, so the operating system hands out distinct ones.
                while (taken.size() < count) {
                    ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                    open.add(socket);
                    taken.add(socket.getLocalPort());
                }
            } catch (IOException e) {
                throw new UncheckedIOException("no free port on localhost: " + e.getMessage(), e);
            } finally {
                for (ServerSocket socket : open) {
                    try {
                        socket.close();
                    } catch (IOException ignored) {
                        // the port is free again either way
                    }
                }
            }
            return new ArrayList<>(taken);
        }
    }
}
