package io.kraft.server;

import io.kraft.broker.BrokerServer;
import io.kraft.broker.network.SocketServerConfig;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.server.grpc.GrpcControllerClient;
import io.kraft.raft.file.BootstrapVotersFile;
import io.kraft.server.grpc.GrpcQuorumDescriber;
import io.kraft.server.http.HttpListenerConfig;
import io.kraft.server.http.NodeHttpServer;
import io.kraft.storage.PreviousShutdown;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A combined node (process.roles=broker,controller): a {@link ControllerNode} (Raft voter, quorum controller and
 * the controller's gRPC service on the CONTROLLER listener) and the Kafka wire server on the client listener
 * answering from the controller's published image. When the node is the only voter its broker talks to the
 * controller in-process; in a larger quorum it goes through a {@link GrpcControllerClient} like any broker, so it
 * reaches whichever voter is active and its heartbeat stream lets that controller fence it fast.
 */
public final class CombinedNode implements AutoCloseable {
    /** The feature levels this build supports. */
    public static final Map<String, SupportedRange> SUPPORTED_FEATURES = ControllerNode.SUPPORTED_FEATURES;
    private static final Logger LOG = LoggerFactory.getLogger(CombinedNode.class);

    private final ControllerNode controllerNode;
    private final Optional<GrpcControllerClient> controllerClient;
    private final BrokerServer broker;
    private final GrpcQuorumDescriber quorumDescriber;
    private NodeHttpServer httpServer;
    private boolean closed;

    private CombinedNode(ControllerNode controllerNode, Optional<GrpcControllerClient> controllerClient,
                         BrokerServer broker, GrpcQuorumDescriber quorumDescriber) {
        this.controllerNode = controllerNode;
        this.controllerClient = controllerClient;
        this.broker = broker;
        this.quorumDescriber = quorumDescriber;
    }

    /**
     * Opens the metadata log in {@code metadataLogDir}, starts Raft and the controller, then the client listener.
     *
     * @param clientListener   the node's listeners, comma-separated (e.g. PLAINTEXT://localhost:9092,SSL://:9093);
     *                         those named in controller.listener.names are skipped
     * @param properties       the node's Kafka-named settings (controller.quorum.*, metadata.log.*, socket.*)
     * @throws InterruptedException if interrupted while binding the client listener
     */
    public static CombinedNode start(int nodeId, String clusterId, Path metadataLogDir, String clientListener,
                                     Map<String, String> properties, TopicConfigResolver topicConfigs)
            throws InterruptedException {
        return start(nodeId, clusterId, metadataLogDir, clientListener, properties, topicConfigs,
                new ProcessStoppingFaultHandler());
    }

    /** Like the other {@code start}, with the handler that hears the metadata's faults. */
    public static CombinedNode start(int nodeId, String clusterId, Path metadataLogDir, String clientListener,
                                     Map<String, String> properties, TopicConfigResolver topicConfigs,
                                     FaultHandler faultHandler) throws InterruptedException {
        return start(nodeId, clusterId, metadataLogDir, clientListener, properties, topicConfigs, faultHandler,
                StartupTimeline.startingNow());
    }

    /** Like the other {@code start}, ending on {@code timeline} each phase this method runs through. */
    public static CombinedNode start(int nodeId, String clusterId, Path metadataLogDir, String clientListener,
                                     Map<String, String> properties, TopicConfigResolver topicConfigs,
                                     FaultHandler faultHandler, StartupTimeline timeline) throws InterruptedException {
        Objects.requireNonNull(clusterId, "clusterId");
        ControllerNode controllerNode = ControllerNode.create(nodeId, clusterId, metadataLogDir, properties,
                topicConfigs, faultHandler, timeline);
        QuorumController controller = controllerNode.controller();
        // A lone static voter is always the active controller; a dynamic quorum may grow and move its leader away.
        boolean loneForGood = controllerNode.quorum().voters().size() == 1
                && BootstrapVotersFile.read(metadataLogDir).isEmpty();
        Optional<GrpcControllerClient> client = loneForGood ? Optional.empty()
                : Optional.of(new GrpcControllerClient(controllerNode.quorum().voters(),
                        GrpcControllerClient.DEFAULT_REQUEST_DEADLINE_MS, controllerNode.quorum().requestTimeoutMs(),
                        () -> controller.leader().leaderId(), controllerNode.security()));
        Controller brokerController = client.isPresent() ? client.get() : controller;
        // The broker registers its publishers before Raft replays the log, so it sees the whole state.
        BrokerServer broker = new BrokerServer(nodeId, clusterId, brokerController, controller, clientListener,
                properties, topicConfigs, faultHandler);
        GrpcQuorumDescriber quorumDescriber = new GrpcQuorumDescriber(controllerNode.quorum().voters(),
                () -> controller.leader().leaderId(), clusterId, controllerNode.quorum().requestTimeoutMs(),
                controllerNode.security());
        broker.setQuorumDescriber(quorumDescriber);
        broker.setQuorumMembership(quorumDescriber.membership());
        client.ifPresent(c -> controllerNode.onVotersChanged(c::votersChanged));
        controllerNode.onVotersChanged(quorumDescriber::votersChanged);
        timeline.end("broker");
        timeline.endWhen("elected", controllerNode::isQuorumLeader, broker.ready());
        timeline.endWhen("registered", () -> broker.brokerEpoch() >= 0, broker.ready());
        timeline.endWhen("unfenced", broker::isUnfenced, broker.ready());
        controllerNode.start();
        timeline.end("raft started");
        try {
            broker.start();
            timeline.end("listeners bound");
        } catch (InterruptedException | RuntimeException e) {
            broker.close();
            quorumDescriber.close();
            client.ifPresent(GrpcControllerClient::close);
            controllerNode.close();
            throw e;
        }
        CombinedNode node = new CombinedNode(controllerNode, client, broker, quorumDescriber);
        try {
            HttpListenerConfig.fromProperties(properties).ifPresent(http -> node.httpServer = NodeHttpServer.start(
                    nodeId, http, List.of(controllerNode.metrics(), broker.metrics()),
                    () -> BrokerNode.isDoneWell(broker.ready())));
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    /** The port of the HTTP endpoint (metrics, health), if {@code http.listener} names one. */
    public OptionalInt httpPort() {
        return httpServer == null ? OptionalInt.empty() : OptionalInt.of(httpServer.port());
    }

    public int nodeId() {
        return controllerNode.nodeId();
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

    public int controllerPort() {
        return controllerNode.controllerPort();
    }

    /** Whether this node's controller leads the quorum (so it is, or is about to be, the active controller). */
    public boolean isQuorumLeader() {
        return controllerNode.isQuorumLeader();
    }

    /** How the previous run left the node's directories (its metadata log and log directories), as it found them. */
    public PreviousShutdown previousShutdown() {
        return controllerNode.previousShutdown().and(broker.replicaManager().previousShutdown());
    }

    /** The broker's replica manager (tests look at its log directories and throttles). */
    public io.kraft.broker.replica.ReplicaManager replicaManager() {
        return broker.replicaManager();
    }

    /** The metadata image this node's controller has committed (tools and benchmarks look inside). */
    public io.kraft.metadata.image.MetadataImage metadataImage() {
        return controllerNode.controller().image();
    }

    /**
     * The last image every publisher of this node has taken in, the broker's authorizer among them: it can trail
     * {@link #metadataImage()}, which is what an answered controller write guarantees (tests wait on it).
     */
    public io.kraft.metadata.image.MetadataImage publishedImage() {
        return controllerNode.controller().publishedImage();
    }

    /** Whether the broker has been unfenced by its controller, so Metadata lists it. */
    public boolean isBrokerUnfenced() {
        return broker.isUnfenced();
    }

    /**
     * Controlled shutdown of the broker, then stops serving clients and heartbeating, then Raft, the controller and
     * the metadata log.
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
        controllerClient.ifPresent(GrpcControllerClient::close);
        controllerNode.close();
        LOG.info("Node {} stopped", controllerNode.nodeId());
    }
}
