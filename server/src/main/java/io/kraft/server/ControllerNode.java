package io.kraft.server;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.controller.BrokerProbe;
import io.kraft.metadata.controller.ClusterFeatures;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.LeaderBalanceSettings;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.controller.TransactionSettings;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.store.RocksDbMetadataStorage;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.RaftConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.Voter;
import io.kraft.raft.VoterBootstrap;
import io.kraft.raft.VoterSet;
import io.kraft.raft.file.BootstrapVotersFile;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.raft.grpc.GrpcRaftTransport;
import io.kraft.raft.grpc.TransportSecurity;
import io.kraft.server.grpc.ControlPlaneSecurity;
import io.kraft.server.grpc.ControllerGrpcService;
import io.kraft.server.grpc.QuorumMembershipGrpcService;
import io.kraft.server.grpc.VoterEndpointUpdater;
import io.kraft.server.http.HttpListenerConfig;
import io.kraft.server.http.NodeHttpServer;
import io.kraft.storage.MetaProperties;
import io.kraft.storage.PreviousShutdown;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A dedicated controller (process.roles=controller), and the controller half of a combined node: a voter of the
 * Raft metadata quorum with its log in metadata.log.dir, the {@link QuorumController}, and the controller's gRPC
 * service next to Raft on the CONTROLLER listener, where brokers register, heartbeat and forward admin requests.
 *
 * <p>{@link #create} builds it without starting Raft, so a combined node can register its broker's publishers
 * before the log is replayed; {@link #start()} then starts it.
 */
public final class ControllerNode implements AutoCloseable {
    /** The feature levels this build supports. */
    public static final Map<String, SupportedRange> SUPPORTED_FEATURES = ClusterFeatures.SUPPORTED;
    private static final Logger LOG = LoggerFactory.getLogger(ControllerNode.class);
    /**
     * The Raft clock's step. Replication, commits and answers are driven by messages and flushes, not by the tick;
     * the tick only checks timeouts (election, fetch, request: a second and more), so a coarse step costs nothing in
     * latency, while each tick is a wake-up of the raft thread on every node, busy or idle.
     */
    public static final long TICK_MS = 50;
    /**
     * Records one Raft fetch response carries at most (its bytes are capped by {@code RaftConfig}'s 8 MiB as well): a
     * member far behind (a new broker replaying the log) needs one round trip per this many records.
     */
    public static final int FETCH_MAX_ENTRIES = 20_000;
    /** How long a probe of a broker that may be gone waits for a connection; only a refusal counts. */
    static final int BROKER_PROBE_TIMEOUT_MS = 1_000;

    private final int nodeId;
    private final QuorumConfig quorum;
    private final FileRaftLog log;
    private final QuorumController controller;
    private final RaftDriver driver;
    private final int controllerPort;
    private final KafkaMetrics metrics;
    private final TransportSecurity security;
    /** In a dynamic quorum: keeps this voter's endpoint in the voter set current. */
    private final Optional<VoterEndpointUpdater> endpointUpdater;
    private final VoterSetAnnouncer announcer;
    private NodeHttpServer httpServer;
    private boolean started;
    private boolean closed;

    private ControllerNode(int nodeId, QuorumConfig quorum, FileRaftLog log, QuorumController controller,
                           RaftDriver driver, int controllerPort, TransportSecurity security,
                           Optional<VoterEndpointUpdater> endpointUpdater, VoterSetAnnouncer announcer) {
        this.nodeId = nodeId;
        this.announcer = announcer;
        this.endpointUpdater = endpointUpdater;
        this.security = security;
        this.quorum = quorum;
        this.log = log;
        this.controller = controller;
        this.driver = driver;
        this.metrics = KafkaMetrics.forNode();
        NodeMetrics.registerRaft(metrics, driver);
        NodeMetrics.registerController(metrics, this::isQuorumLeader, controller::image);
        this.controllerPort = controllerPort;
    }

    /**
     * Opens the metadata log and builds the controller, its Raft voter and its gRPC services, without starting them.
     *
     * @param properties the node's Kafka-named settings (controller.quorum.*, metadata.log.*, broker.session.timeout.ms)
     * @throws IllegalArgumentException if the node is not among the voters, or a setting is invalid
     */
    public static ControllerNode create(int nodeId, String clusterId, Path metadataLogDir, Map<String, String> properties,
                                        TopicConfigResolver topicConfigs) {
        return create(nodeId, clusterId, metadataLogDir, properties, topicConfigs, new ProcessStoppingFaultHandler());
    }

    /**
     * Like {@link #create(int, String, Path, Map, TopicConfigResolver)}, with the handler that hears the metadata's
     * faults (Raft's thread stopping, a publisher failing, a committed record that does not apply) instead of one that
     * stops the process.
     */
    public static ControllerNode create(int nodeId, String clusterId, Path metadataLogDir, Map<String, String> properties,
                                        TopicConfigResolver topicConfigs, FaultHandler faultHandler) {
        return create(nodeId, clusterId, metadataLogDir, properties, topicConfigs, faultHandler,
                StartupTimeline.startingNow());
    }

    /** Like the other {@code create}, ending the phases of opening the log, the state store and the controller. */
    static ControllerNode create(int nodeId, String clusterId, Path metadataLogDir, Map<String, String> properties,
                                 TopicConfigResolver topicConfigs, FaultHandler faultHandler,
                                 StartupTimeline timeline) {
        Objects.requireNonNull(clusterId, "clusterId");
        // Key material first: a control plane that cannot start refuses before any file is opened.
        TransportSecurity security = ControlPlaneSecurity.from(properties);
        QuorumConfig quorum = QuorumAddresses.resolve(nodeId, properties, metadataLogDir, security);
        if (!quorum.voters().containsKey(nodeId)) {
            throw new IllegalArgumentException("node " + nodeId + " is not among the voters " + quorum.voters().keySet());
        }
        int controllerPort = quorum.voters().get(nodeId).getPort();
        ControllerSettings settings = ControllerSettings.fromProperties(clusterId, properties);
        SnapshotPolicy snapshotPolicy = SnapshotPolicy.from(properties);
        Path logDir = MetadataLogDirs.prepare(metadataLogDir);
        FileSnapshotStore snapshots = FileSnapshotStore.open(logDir);
        FileRaftLog log = FileRaftLog.open(logDir, properties);
        timeline.end("metadata log");
        RocksDbMetadataStorage storage = new RocksDbMetadataStorage(logDir.resolve(MetadataLogDirs.CONTROLLER_STATE),
                snapshots);
        timeline.end("state store");
        QuorumController controller = QuorumController.builder(nodeId, settings)
                .topicConfigs(topicConfigs)
                .transactionSettings(TransactionSettings.fromProperties(properties))
                .leaderBalance(LeaderBalanceSettings.fromProperties(properties))
                .supportedFeatures(SUPPORTED_FEATURES)
                .storage(storage)
                .snapshotPolicy(snapshotPolicy)
                .faultHandler(faultHandler)
                .brokerProbe(ControllerSettings.brokerProbeEnabled(properties)
                        ? new TcpBrokerProbe(BROKER_PROBE_TIMEOUT_MS) : BrokerProbe.NONE)
                .bootstrapRecords(BootstrapMetadata.read(metadataLogDir))
                .build();
        // The membership service reaches the driver built below, once the transport it is served on exists.
        AtomicReference<RaftDriver> raft = new AtomicReference<>();
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, clusterId, quorum.voters(), controllerPort,
                quorum.requestTimeoutMs(), List.of(new ControllerGrpcService(controller),
                new QuorumMembershipGrpcService(nodeId, clusterId, raft::get)), security);
        RaftConfig raftConfig = quorum.raftConfig(nodeId, TICK_MS, FETCH_MAX_ENTRIES);
        VoterSetAnnouncer announcer = new VoterSetAnnouncer(transport);
        RaftDriver driver = new RaftDriver(raftConfig, TICK_MS, log, snapshots,
                MetadataLogRetention.from(log, properties), new FileQuorumStateStore(logDir), announcer, controller,
                nodeId, faultHandler::handleFault, voterBootstrap(metadataLogDir, raftConfig));
        raft.set(driver);
        transport.serveDescribeQuorum(driver::describe);
        Optional<VoterEndpointUpdater> endpointUpdater = BootstrapVotersFile.read(metadataLogDir).map(dynamic -> {
            InetSocketAddress own = quorum.voters().get(nodeId);
            Voter self = new Voter(nodeId, MetaProperties.read(metadataLogDir).map(MetaProperties::directoryUuid)
                    .orElse(Voter.UNKNOWN_DIRECTORY), own.getHostString() + ":" + own.getPort());
            return new VoterEndpointUpdater(self, driver, quorum.voters(), () -> controller.leader().leaderId(),
                    clusterId, security);
        });
        endpointUpdater.ifPresent(updater -> announcer.onVotersChanged(updater::votersChanged));
        timeline.end("controller");
        return new ControllerNode(nodeId, quorum, log, controller, driver, controllerPort, security,
                endpointUpdater, announcer);
    }

    /**
     * Where the voter set starts: the set {@code kraft-cli format --standalone | --initial-controllers} wrote
     * (kraft.version 1, KIP-853; this node is the voter whose directory is its metadata log directory's id), else the
     * static {@code controller.quorum.voters}.
     */
    static VoterBootstrap voterBootstrap(Path metadataLogDir, RaftConfig raftConfig) {
        return BootstrapVotersFile.read(metadataLogDir)
                .map(voters -> VoterBootstrap.dynamic(voters, MetaProperties.read(metadataLogDir)
                        .map(MetaProperties::directoryUuid).orElse(Voter.UNKNOWN_DIRECTORY)))
                .orElseGet(() -> VoterBootstrap.fromStatic(raftConfig));
    }

    /** Builds and starts a dedicated controller; see {@link #create}. */
    public static ControllerNode start(int nodeId, String clusterId, Path metadataLogDir, Map<String, String> properties,
                                       TopicConfigResolver topicConfigs) {
        return start(nodeId, clusterId, metadataLogDir, properties, topicConfigs, new ProcessStoppingFaultHandler());
    }

    /** Like the other {@code start}, with the handler that hears the metadata's faults. */
    public static ControllerNode start(int nodeId, String clusterId, Path metadataLogDir, Map<String, String> properties,
                                       TopicConfigResolver topicConfigs, FaultHandler faultHandler) {
        ControllerNode node = create(nodeId, clusterId, metadataLogDir, properties, topicConfigs, faultHandler);
        node.start();
        try {
            // A controller serves from the start: it can vote at once.
            HttpListenerConfig.fromProperties(properties).ifPresent(http -> node.httpServer =
                    NodeHttpServer.start(nodeId, http, List.of(node.metrics), () -> true));
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    /** Starts the controller and Raft: the log replays, and the CONTROLLER listener serves Raft and ControllerService. */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("controller node " + nodeId + " is already started");
        }
        started = true;
        controller.start(driver);
        driver.start();
        endpointUpdater.ifPresent(VoterEndpointUpdater::start);
        LOG.info("Node {} serves Raft and the controller on CONTROLLER port {}{}", nodeId, controllerPort,
                security.isTls() ? " (mutual TLS)" : "");
    }

    public int nodeId() {
        return nodeId;
    }

    /** The port of the CONTROLLER listener (this voter's entry in controller.quorum.voters). */
    public int controllerPort() {
        return controllerPort;
    }

    public QuorumConfig quorum() {
        return quorum;
    }

    /** Tells {@code listener} of every new voter set (on the Raft thread); register before {@link #start()}. */
    void onVotersChanged(Consumer<VoterSet> listener) {
        announcer.onVotersChanged(listener);
    }

    /** The voter set in force on this node: the latest its metadata log states (KIP-853). */
    public CompletableFuture<VoterSet> voters() {
        return driver.voters();
    }

    /** How this node's control-plane connections are secured (plaintext, or mutual TLS with its certificate). */
    public TransportSecurity security() {
        return security;
    }

    /** Whether this voter leads the Raft quorum, which makes its controller the active one (once caught up). */
    public boolean isQuorumLeader() {
        return controller.leader().leaderId().equals(OptionalInt.of(nodeId));
    }

    /** How the previous run left the metadata log, as opening it found. */
    public PreviousShutdown previousShutdown() {
        return log.previousShutdown();
    }

    /** The controller's and Raft's metrics (JMX and Prometheus). */
    public KafkaMetrics metrics() {
        return metrics;
    }

    /** The quorum controller, active while this voter leads. */
    public QuorumController controller() {
        return controller;
    }

    /** Stops Raft and the CONTROLLER listener (brokers' streams end and they move on), the controller and the log. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (httpServer != null) {
            httpServer.close();
        }
        endpointUpdater.ifPresent(VoterEndpointUpdater::close);
        driver.close();
        controller.close();
        log.close();
        metrics.close();
        LOG.info("Controller {} stopped", nodeId);
    }
}
