package io.kraft.server;

import io.kraft.broker.BrokerServer;
import io.kraft.broker.network.SocketServerConfig;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.loader.MetadataFollower;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.raft.grpc.GrpcRaftTransport;
import io.kraft.raft.grpc.TransportSecurity;
import io.kraft.server.grpc.ControlPlaneSecurity;
import io.kraft.server.grpc.GrpcControllerClient;
import io.kraft.server.grpc.GrpcQuorumDescriber;
import io.kraft.server.http.HttpListenerConfig;
import io.kraft.server.http.NodeHttpServer;
import io.kraft.storage.PreviousShutdown;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A dedicated broker (process.roles=broker): a Raft observer that follows the controllers' metadata log into its own
 * image ({@link MetadataFollower}), the Kafka wire server answering from that image ({@link BrokerServer}), and a
 * {@link GrpcControllerClient} through which it registers, heartbeats on one stream and forwards admin requests to
 * the active controller. Closing it runs a controlled shutdown first (its leaderships move, bounded by a timeout).
 */
public final class BrokerNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerNode.class);

    private final int nodeId;
    private final FileRaftLog log;
    private final MetadataFollower follower;
    private final RaftDriver driver;
    private final GrpcControllerClient controllerClient;
    private final BrokerServer broker;
    private final GrpcQuorumDescriber quorumDescriber;
    private NodeHttpServer httpServer;
    private boolean closed;

    private BrokerNode(int nodeId, FileRaftLog log, MetadataFollower follower, RaftDriver driver,
                       GrpcControllerClient controllerClient, BrokerServer broker,
                       GrpcQuorumDescriber quorumDescriber) {
        this.nodeId = nodeId;
        this.log = log;
        this.follower = follower;
        this.driver = driver;
        this.controllerClient = controllerClient;
        this.broker = broker;
        this.quorumDescriber = quorumDescriber;
    }

    /**
     * Opens the metadata log in {@code metadataLogDir}, starts following the quorum, then binds the client listener
     * and registers with the active controller.
     *
     * @param clientListener the node's listeners, comma-separated (e.g. PLAINTEXT://localhost:9092,SSL://:9093); those
     *                       named in controller.listener.names are skipped
     * @param properties     the node's Kafka-named settings (controller.quorum.*, metadata.log.*, socket.*)
     * @throws IllegalArgumentException if the node is one of the voters (a broker-only node is not), or a setting is
     *                                  invalid
     * @throws InterruptedException     if interrupted while binding the client listener
     */
    public static BrokerNode start(int nodeId, String clusterId, Path metadataLogDir, String clientListener,
                                   Map<String, String> properties, TopicConfigResolver topicConfigs)
            throws InterruptedException {
        return start(nodeId, clusterId, metadataLogDir, clientListener, properties, topicConfigs,
                new ProcessStoppingFaultHandler());
    }

    /** Like the other {@code start}, with the handler that hears the metadata's faults. */
    public static BrokerNode start(int nodeId, String clusterId, Path metadataLogDir, String clientListener,
                                   Map<String, String> properties, TopicConfigResolver topicConfigs,
                                   FaultHandler faultHandler) throws InterruptedException {
        Objects.requireNonNull(clusterId, "clusterId");
        // Key material first: a control plane that cannot start refuses before any file is opened.
        TransportSecurity security = ControlPlaneSecurity.from(properties);
        QuorumConfig quorum = QuorumAddresses.resolve(nodeId, properties, null, security);
        if (quorum.voters().containsKey(nodeId)) {
            throw new IllegalArgumentException("node " + nodeId + " is among the voters " + quorum.voters().keySet()
                    + " but runs only the broker role: give it another node.id or the controller role too");
        }
        Path logDir = MetadataLogDirs.prepare(metadataLogDir);
        FileSnapshotStore snapshots = FileSnapshotStore.open(logDir);
        FileRaftLog log = FileRaftLog.open(logDir, properties);
        MetadataFollower follower = MetadataFollower.open(nodeId, logDir.resolve(MetadataLogDirs.BROKER_STATE),
                snapshots, SnapshotPolicy.from(properties), faultHandler);
        // An observer serves nothing: it only fetches from the voters.
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, clusterId, quorum.voters(), -1,
                quorum.requestTimeoutMs(), List.of(), security);
        VoterSetAnnouncer announcer = new VoterSetAnnouncer(transport);
        RaftDriver driver = new RaftDriver(quorum.raftConfig(nodeId, ControllerNode.TICK_MS,
                ControllerNode.FETCH_MAX_ENTRIES), ControllerNode.TICK_MS, log, snapshots,
                MetadataLogRetention.from(log, properties), new FileQuorumStateStore(logDir), announcer,
                follower, nodeId, faultHandler::handleFault);
        GrpcControllerClient controllerClient = new GrpcControllerClient(quorum.voters(),
                GrpcControllerClient.DEFAULT_REQUEST_DEADLINE_MS, quorum.requestTimeoutMs(), follower::leaderId,
                security);
        // The broker registers its publishers before Raft replays the log, so it sees the whole state.
        BrokerServer broker = new BrokerServer(nodeId, clusterId, controllerClient, follower, clientListener, properties,
                topicConfigs, faultHandler);
        GrpcQuorumDescriber quorumDescriber = new GrpcQuorumDescriber(quorum.voters(), follower::leaderId, clusterId,
                quorum.requestTimeoutMs(), security);
        broker.setQuorumDescriber(quorumDescriber);
        broker.setQuorumMembership(quorumDescriber.membership());
        announcer.onVotersChanged(controllerClient::votersChanged);
        announcer.onVotersChanged(quorumDescriber::votersChanged);
        follower.start(driver);
        driver.start();
        LOG.info("Broker {} follows the metadata quorum {} as an observer", nodeId, quorum.voters().keySet());
        try {
            broker.start();
        } catch (InterruptedException | RuntimeException e) {
            broker.close();
            quorumDescriber.close();
            controllerClient.close();
            driver.close();
            follower.close();
            log.close();
            throw e;
        }
        BrokerNode node = new BrokerNode(nodeId, log, follower, driver, controllerClient, broker, quorumDescriber);
        NodeMetrics.registerRaft(broker.metrics(), driver);
        try {
            HttpListenerConfig.fromProperties(properties).ifPresent(http -> node.httpServer = NodeHttpServer.start(
                    nodeId, http, List.of(broker.metrics()), () -> isDoneWell(broker.ready())));
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    public int nodeId() {
        return nodeId;
    }

    /** The port Kafka clients connect to (the bound one when the configured port was 0). */
    public int clientPort() {
        return broker.clientPort();
    }

    /** Completes once the client listener accepts connections: the broker is registered, caught up and unfenced. */
    public CompletableFuture<Void> ready() {
        return broker.ready();
    }

    public SocketServerConfig clientListener() {
        return broker.clientListener();
    }

    /** "NAME host:port" of each broker listener (bound ports), for the start line. */
    public String listening() {
        return broker.listening();
    }

    /** The bound port of the broker listener {@code name}. */
    public int listenerPort(String name) {
        return broker.listenerPort(name);
    }

    /** Whether the broker has been unfenced by the active controller, so Metadata lists it. */
    public boolean isBrokerUnfenced() {
        return broker.isUnfenced();
    }

    /** The metadata this broker has applied from the log. */
    public MetadataFollower metadata() {
        return follower;
    }

    /** The port of the HTTP endpoint (metrics, health), if {@code http.listener} names one. */
    public OptionalInt httpPort() {
        return httpServer == null ? OptionalInt.empty() : OptionalInt.of(httpServer.port());
    }

    static boolean isDoneWell(CompletableFuture<?> future) {
        return future.isDone() && !future.isCompletedExceptionally();
    }

    /** The broker's partitions, logs and replication (tests and tools look inside). */
    public ReplicaManager replicaManager() {
        return broker.replicaManager();
    }

    /** How the previous run left the node's directories (its metadata log and log directories), as it found them. */
    public PreviousShutdown previousShutdown() {
        return log.previousShutdown().and(broker.replicaManager().previousShutdown());
    }

    /**
     * Controlled shutdown (the controller moves this broker's leaderships and fences it), then stops serving clients,
     * ends the heartbeat stream, stops following the log and closes it.
     */
    @Override
    public void close() {
        close(true);
    }

    /**
     * Stops without a clean shutdown, for tests: the broker stops as {@link BrokerServer#kill()} says (no controlled
     * shutdown, logs left to recovery); the metadata log and Raft stop as they always do, since what they acknowledged
     * is already on disk.
     */
    public void kill() {
        close(false);
    }

    private synchronized void close(boolean clean) {
        if (closed) {
            return;
        }
        closed = true;
        if (httpServer != null) {
            httpServer.close();
        }
        if (clean) {
            broker.close();
        } else {
            broker.kill();
        }
        quorumDescriber.close();
        controllerClient.close();
        driver.close();
        follower.close();
        log.close();
        LOG.info("Node {} stopped", nodeId);
    }
}
