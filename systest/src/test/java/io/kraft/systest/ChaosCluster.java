package io.kraft.systest;

import io.kraft.storage.MetaProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Three dedicated controllers and three dedicated brokers as processes, every node-to-node connection through a
 * {@link ProxyMesh} link so the network can be partitioned. Controllers name the other voters at the proxies
 * (this controller -> that voter); brokers reach the controllers through (broker -> controller) proxies. For
 * replication each broker has a listener per broker, {@code R4}, {@code R5}, {@code R6}: broker X advertises
 * {@code R<b>} at the proxy (b -> X) and broker b sets {@code inter.broker.listener.name=R<b>}, so b's fetches from X
 * cross link b -> X. Clients use each broker's {@code PLAINTEXT} listener directly, never a proxy.
 */
final class ChaosCluster implements AutoCloseable {
    static final List<Integer> CONTROLLERS = List.of(1, 2, 3);
    static final List<Integer> BROKERS = List.of(4, 5, 6);
    private static final Duration START_WAIT = Duration.ofSeconds(120);
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private final ProcessRegistry processes;
    private final ProxyMesh mesh = new ProxyMesh();
    private final Map<Integer, NodeConfigFile> nodes = new TreeMap<>();
    private final Map<Integer, Path> configFiles = new TreeMap<>();
    private final Map<Integer, JvmProcess> running = new TreeMap<>();
    private int launches;

    ChaosCluster(ProcessRegistry processes, Path dataDir) {
        this.processes = processes;
        configure(dataDir);
    }

    private void configure(Path dataDir) {
        for (int id : CONTROLLERS) {
            nodes.put(id, NodeConfigFile.controller(id, dataDir.resolve("node-" + id))
                    .with("broker.session.timeout.ms", "4000")
                    .with("broker.connection.loss.grace.ms", "1000"));
        }
        Map<Integer, Map<Integer, Integer>> replicationPorts = new TreeMap<>();
        for (int id : BROKERS) {
            nodes.put(id, NodeConfigFile.broker(id, dataDir.resolve("node-" + id))
                    .with("num.network.threads", "1")
                    .with("replica.fetch.backoff.ms", "100")
                    .with("replica.lag.time.max.ms", "6000")
                    .with("offsets.topic.replication.factor", "3")
                    .with("offsets.topic.num.partitions", "3")
                    .with("group.initial.rebalance.delay.ms", "0")
                    .with("inter.broker.listener.name", "R" + id));
            Map<Integer, Integer> ports = new TreeMap<>();
            BROKERS.forEach(peer -> ports.put(peer, FreePorts.next()));
            replicationPorts.put(id, ports);
        }
        for (int id : CONTROLLERS) {
            nodes.get(id).with("controller.quorum.voters", CONTROLLERS.stream()
                    .map(voter -> voter + "@127.0.0.1:" + (voter == id ? nodes.get(voter).controllerPort()
                            : mesh.add(id, voter, nodes.get(voter).controllerPort())))
                    .collect(Collectors.joining(",")));
        }
        for (int id : BROKERS) {
            NodeConfigFile broker = nodes.get(id);
            broker.with("controller.quorum.voters", CONTROLLERS.stream()
                    .map(voter -> voter + "@127.0.0.1:" + mesh.add(id, voter, nodes.get(voter).controllerPort()))
                    .collect(Collectors.joining(",")));
            Map<Integer, Integer> ports = replicationPorts.get(id);
            List<String> listeners = new ArrayList<>(List.of("PLAINTEXT://127.0.0.1:" + broker.brokerPort()));
            List<String> advertised = new ArrayList<>(listeners);
            List<String> protocols = new ArrayList<>(List.of("PLAINTEXT:PLAINTEXT", "CONTROLLER:PLAINTEXT"));
            for (int peer : BROKERS) {
                listeners.add("R" + peer + "://127.0.0.1:" + ports.get(peer));
                // A peer fetching from this broker dials the proxy (peer -> this broker); this broker's own R listener
                // is never dialled (no broker fetches from itself) and is advertised as bound.
                int advertisedPort = peer == id ? ports.get(peer) : mesh.add(peer, id, ports.get(peer));
                advertised.add("R" + peer + "://127.0.0.1:" + advertisedPort);
                protocols.add("R" + peer + ":PLAINTEXT");
            }
            broker.with("listeners", String.join(",", listeners))
                    .with("advertised.listeners", String.join(",", advertised))
                    .with("listener.security.protocol.map", String.join(",", protocols));
        }
        // What 'kraft-cli format' writes (its own tests cover the command), without six more JVM launches.
        String clusterId = MetaProperties.randomUuid();
        nodes.forEach((id, node) -> {
            configFiles.put(id, node.write());
            node.directories().forEach(directory -> MetaProperties.forNewDirectory(clusterId, id).write(directory));
        });
    }

    /** A configured cluster with every node started and ready (the proxies closed again if that fails). */
    static ChaosCluster started(ProcessRegistry processes, Path dataDir) {
        ChaosCluster cluster = new ChaosCluster(processes, dataDir);
        try {
            cluster.startAll();
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    ProxyMesh mesh() {
        return mesh;
    }

    /** Starts every node and waits until each controller is ready and each broker unfenced. */
    void startAll() {
        nodes.keySet().forEach(this::start);
        nodes.keySet().forEach(this::awaitReady);
    }

    /** Launches a new incarnation of the node (its files stay). */
    void start(int id) {
        launches++;
        running.put(id, processes.start(JvmSpec.kraftCli("node-" + id + "-run-" + launches, "start", "--config",
                configFiles.get(id).toString())));
    }

    /** Waits until the node's current incarnation is ready (and, for a broker, unfenced). */
    void awaitReady(int id) {
        JvmProcess process = running.get(id);
        process.waitForLogLine("kraft node " + id + " ready", START_WAIT);
        if (BROKERS.contains(id)) {
            process.waitForLogLine("Broker " + id + " is unfenced", START_WAIT);
        }
    }

    void kill(int id) {
        running.get(id).kill(STOP_WAIT);
    }

    void pause(int id) {
        running.get(id).pause();
    }

    void resume(int id) {
        running.get(id).resume();
    }

    /** The PLAINTEXT addresses of every broker, for clients. */
    String bootstrap() {
        return BROKERS.stream().map(id -> "127.0.0.1:" + nodes.get(id).brokerPort()).collect(Collectors.joining(","));
    }

    Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000",
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "100",
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500"));
    }

    /** The leader of the metadata quorum as the brokers report it, or -1 if none answers in time. */
    static int activeController(Admin admin) {
        try {
            return admin.describeMetadataQuorum().quorumInfo().get(10, TimeUnit.SECONDS).leaderId();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Resumes paused nodes, heals the network and restarts dead nodes, waiting until each is ready. */
    void restoreAll() {
        mesh.healAll();
        running.forEach((id, process) -> {
            if (process.isPaused()) {
                process.resume();
            }
        });
        List<Integer> restarted = new ArrayList<>();
        running.forEach((id, process) -> {
            if (!process.isAlive()) {
                restarted.add(id);
            }
        });
        restarted.forEach(this::start);
        restarted.forEach(this::awaitReady);
    }

    @Override
    public void close() {
        mesh.close();
    }
}
