package io.kraft.broker.node;

import io.kraft.broker.network.SocketServerConfig;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.raft.grpc.GrpcRaftTransport;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A combined node (process.roles=broker,controller): the Raft metadata log and quorum controller served on
 * the CONTROLLER listener, and the Kafka wire server on the client listener answering from the controller's
 * published image, with the broker registered and heartbeating in-process.
 */
public final class CombinedNode implements AutoCloseable {
    /** The metadata.version range this build supports. */
    public static final Map<String, SupportedRange> SUPPORTED_FEATURES =
            Map.of("metadata.version", new SupportedRange(1, 3));
    private static final Logger LOG = LoggerFactory.getLogger(CombinedNode.class);
    private static final long TICK_MS = 10;
    private static final int FETCH_MAX_ENTRIES = 500;

    private final int nodeId;
    private final FileRaftLog log;
    private final QuorumController controller;
    private final RaftDriver driver;
    private final BrokerServer broker;
    private final int controllerPort;
    private boolean closed;

    private CombinedNode(int nodeId, FileRaftLog log, QuorumController controller, RaftDriver driver,
                         BrokerServer broker, int controllerPort) {
        this.nodeId = nodeId;
        this.log = log;
        this.controller = controller;
        this.driver = driver;
        this.broker = broker;
        this.controllerPort = controllerPort;
    }

    /**
     * Opens the metadata log in {@code metadataLogDir}, starts Raft and the controller, then the client listener.
     *
     * @param clientListener   the listener Kafka clients use (e.g. PLAINTEXT://localhost:9092)
     * @param properties       the node's Kafka-named settings (controller.quorum.*, metadata.log.*, socket.*)
     * @throws InterruptedException if interrupted while binding the client listener
     */
    public static CombinedNode start(int nodeId, String clusterId, Path metadataLogDir, String clientListener,
                                     Map<String, String> properties, TopicConfigResolver topicConfigs)
            throws InterruptedException {
        Objects.requireNonNull(clusterId, "clusterId");
        QuorumConfig quorum = QuorumConfig.from(properties);
        if (!quorum.voters().containsKey(nodeId)) {
            throw new IllegalArgumentException("node " + nodeId + " is not among the voters " + quorum.voters().keySet());
        }
        int controllerPort = quorum.voters().get(nodeId).getPort();
        ControllerSettings settings = ControllerSettings.fromProperties(clusterId, properties);
        FileSnapshotStore snapshots = FileSnapshotStore.open(metadataLogDir);
        Map<String, String> logProperties = new HashMap<>(properties);
        logProperties.put(FileRaftLog.LOG_DIR_CONFIG, metadataLogDir.toString());
        FileRaftLog log = FileRaftLog.open(logProperties);
        QuorumController controller = new QuorumController(nodeId, settings, topicConfigs, SUPPORTED_FEATURES,
                metadataLogDir.resolve("controller-state"), snapshots, SnapshotPolicy.from(properties), nodeId);
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, clusterId, quorum.voters(), controllerPort,
                quorum.requestTimeoutMs());
        RaftDriver driver = new RaftDriver(quorum.raftConfig(nodeId, TICK_MS, FETCH_MAX_ENTRIES), TICK_MS, log,
                snapshots, MetadataLogRetention.from(log, properties), new FileQuorumStateStore(metadataLogDir),
                transport, controller, nodeId);
        // The broker registers its publishers before Raft replays the log, so it sees the whole state.
        BrokerServer broker = new BrokerServer(nodeId, clusterId, controller, controller, clientListener, properties,
                topicConfigs);
        controller.start(driver);
        driver.start();
        LOG.info("Node {} started Raft on CONTROLLER port {}", nodeId, controllerPort);
        try {
            broker.start();
        } catch (InterruptedException | RuntimeException e) {
            broker.close();
            driver.close();
            controller.close();
            log.close();
            throw e;
        }
        return new CombinedNode(nodeId, log, controller, driver, broker, controllerPort);
    }

    public int nodeId() {
        return nodeId;
    }

    /** The port Kafka clients connect to (the bound one when the configured port was 0). */
    public int clientPort() {
        return broker.clientPort();
    }

    public SocketServerConfig clientListener() {
        return broker.clientListener();
    }

    public int controllerPort() {
        return controllerPort;
    }

    /** Whether the broker has been unfenced by its controller, so Metadata lists it. */
    public boolean isBrokerUnfenced() {
        return broker.isUnfenced();
    }

    /** Stops serving clients, then the heartbeats, Raft, the controller, and closes the metadata log. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        broker.close();
        driver.close();
        controller.close();
        log.close();
        LOG.info("Node {} stopped", nodeId);
    }
}
