package io.kraft.broker.node;

import io.kraft.broker.handler.ApiVersionsHandler;
import io.kraft.broker.handler.CreateTopicsHandler;
import io.kraft.broker.handler.DeleteTopicsHandler;
import io.kraft.broker.handler.MetadataHandler;
import io.kraft.broker.network.KafkaServer;
import io.kraft.broker.network.RequestHandlerRegistry;
import io.kraft.broker.network.SocketServerConfig;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.raft.grpc.GrpcRaftTransport;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
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
    private static final long HEARTBEAT_INTERVAL_MS = 1_000;

    private final int nodeId;
    private final FileRaftLog log;
    private final QuorumController controller;
    private final RaftDriver driver;
    private final KafkaServer server;
    private final BrokerLifecycle lifecycle;
    private final SocketServerConfig clientListener;
    private final int controllerPort;
    private boolean closed;

    private CombinedNode(int nodeId, FileRaftLog log, QuorumController controller, RaftDriver driver,
                         KafkaServer server, BrokerLifecycle lifecycle, SocketServerConfig clientListener,
                         int controllerPort) {
        this.nodeId = nodeId;
        this.log = log;
        this.controller = controller;
        this.driver = driver;
        this.server = server;
        this.lifecycle = lifecycle;
        this.clientListener = clientListener;
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
        ControllerSettings settings = ControllerSettings.defaults(clusterId);
        FileSnapshotStore snapshots = FileSnapshotStore.open(metadataLogDir);
        Map<String, String> logProperties = new HashMap<>(properties);
        logProperties.put(FileRaftLog.LOG_DIR_CONFIG, metadataLogDir.toString());
        FileRaftLog log = FileRaftLog.open(logProperties);
        QuorumController controller = new QuorumController(nodeId, settings, topicConfigs, SUPPORTED_FEATURES,
                metadataLogDir.resolve("controller-state"), snapshots, SnapshotPolicy.from(properties), nodeId);
        AtomicReference<MetadataImage> published = new AtomicReference<>(MetadataImage.EMPTY);
        controller.register((delta, image) -> published.set(image));
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, clusterId, quorum.voters(), controllerPort,
                quorum.requestTimeoutMs());
        RaftDriver driver = new RaftDriver(quorum.raftConfig(nodeId, TICK_MS, FETCH_MAX_ENTRIES), TICK_MS, log,
                snapshots, MetadataLogRetention.from(log, properties), new FileQuorumStateStore(metadataLogDir),
                transport, controller, nodeId);
        controller.start(driver);
        driver.start();
        LOG.info("Node {} started Raft on CONTROLLER port {}", nodeId, controllerPort);

        Map<String, String> serverProperties = new HashMap<>(properties);
        serverProperties.put(SocketServerConfig.LISTENERS, clientListener);
        SocketServerConfig serverConfig = SocketServerConfig.fromProperties(serverProperties);
        KafkaServer server = new KafkaServer(serverConfig, RequestHandlerRegistry.of(new ApiVersionsHandler(),
                new MetadataHandler(published::get, clusterId), new CreateTopicsHandler(controller),
                new DeleteTopicsHandler(controller)));
        try {
            server.start();
        } catch (InterruptedException | RuntimeException e) {
            server.close();
            driver.close();
            controller.close();
            log.close();
            throw e;
        }
        int clientPort = server.boundPort();
        LOG.info("Node {} serves Kafka clients on {} port {}", nodeId, serverConfig.listenerName(), clientPort);
        BrokerLifecycle lifecycle = new BrokerLifecycle(controller, clusterId, nodeId, List.of(new Endpoint(
                serverConfig.listenerName(), serverConfig.host(), clientPort, "PLAINTEXT")), HEARTBEAT_INTERVAL_MS);
        lifecycle.start();
        return new CombinedNode(nodeId, log, controller, driver, server, lifecycle, serverConfig, controllerPort);
    }

    public int nodeId() {
        return nodeId;
    }

    /** The port Kafka clients connect to (the bound one when the configured port was 0). */
    public int clientPort() {
        return server.boundPort();
    }

    public SocketServerConfig clientListener() {
        return clientListener;
    }

    public int controllerPort() {
        return controllerPort;
    }

    /** Whether the broker has been unfenced by its controller, so Metadata lists it. */
    public boolean isBrokerUnfenced() {
        return !lifecycle.isFenced();
    }

    /** Stops serving clients, then the heartbeats, Raft, the controller, and closes the metadata log. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.close();
        lifecycle.close();
        driver.close();
        controller.close();
        log.close();
        LOG.info("Node {} stopped", nodeId);
    }
}
