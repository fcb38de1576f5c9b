package io.kraft.broker;

import io.kraft.broker.api.AuthorizationGates;
import io.kraft.broker.api.admin.AdminHandlers;
import io.kraft.broker.api.admin.DeleteTopicsHandler;
import io.kraft.broker.api.admin.AlterReplicaLogDirsHandler;
import io.kraft.broker.api.admin.DescribeLogDirsHandler;
import io.kraft.broker.api.admin.AddRaftVoterHandler;
import io.kraft.broker.api.admin.DescribeQuorumHandler;
import io.kraft.broker.api.admin.QuorumMembership;
import io.kraft.broker.api.admin.RemoveRaftVoterHandler;
import io.kraft.broker.api.admin.QuorumDescriber;
import io.kraft.broker.api.auth.AlterUserScramCredentialsHandler;
import io.kraft.broker.api.auth.DescribeUserScramCredentialsHandler;
import io.kraft.broker.api.auth.SaslAuthenticateHandler;
import io.kraft.broker.api.auth.SaslHandshakeHandler;
import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.api.data.DeleteRecordsHandler;
import io.kraft.broker.api.data.DescribeProducersHandler;
import io.kraft.broker.api.data.ListOffsetsHandler;
import io.kraft.broker.api.data.OffsetForLeaderEpochHandler;
import io.kraft.broker.api.data.ProduceHandler;
import io.kraft.broker.api.data.WriteTxnMarkersHandler;
import io.kraft.broker.api.group.TxnOffsetCommitHandler;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.fetch.FetchHandler;
import io.kraft.broker.fetch.FetchSessionCache;
import io.kraft.broker.group.GroupCoordinatorComponents;
import io.kraft.broker.group.GroupApi;
import io.kraft.broker.group.share.ShareGroupComponents;
import io.kraft.broker.group.GroupCoordinatorMetrics;
import io.kraft.broker.lifecycle.BrokerLifecycle;
import io.kraft.broker.lifecycle.BrokerLifecycleConfig;
import io.kraft.broker.lifecycle.ClientListenerGate;
import io.kraft.broker.lifecycle.LogDirStatus;
import io.kraft.broker.metrics.BrokerTopicMetrics;
import io.kraft.broker.metrics.DeletedTopicMetrics;
import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import io.kraft.broker.quota.ReplicationQuotaConfig;
import io.kraft.broker.quota.ClientQuotas;
import io.kraft.broker.quota.QuotaWindows;
import io.kraft.broker.network.ApiHandler;
import io.kraft.broker.network.InterBrokerSecurity;
import io.kraft.broker.network.KafkaServer;
import io.kraft.broker.network.Listeners;
import io.kraft.broker.network.RequestHandlerRegistry;
import io.kraft.broker.network.SharedNetworkResources;
import io.kraft.broker.network.SocketServerConfig;
import io.kraft.broker.network.SslContextFactory;
import io.kraft.broker.network.SaslSettings;
import io.kraft.broker.network.ScramCredentials;
import io.kraft.broker.network.SslSettings;
import io.kraft.broker.replica.LogDirListener;
import io.kraft.broker.security.RequestAuthorizer;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.broker.replica.ReplicaManagerConfig;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.PartitionMetrics;
import io.kraft.broker.replica.ReplicaManagerMetrics;
import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.broker.txn.TransactionComponents;
import io.kraft.config.ConfigException;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.AssignReplicasToDirsRequest;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.OfflineLogDir;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataSource;
import io.kraft.storage.log.TopicPartition;
import io.netty.handler.ssl.SslContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker role of a node: the Kafka wire server and its handlers, answering from the node's committed
 * metadata and asking the active controller for changes, plus the broker's registration and heartbeats.
 * Built before the metadata log is replayed (so its components see the whole state), started after.
 */
public final class BrokerServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerServer.class);

    private final int nodeId;
    private final String clusterId;
    private final Controller controller;
    private final MetadataSource metadata;
    private final Listeners listeners;
    /** One wire server per broker listener, in the configured order; the first is the client listener. */
    private final Map<String, KafkaServer> servers = new LinkedHashMap<>();
    private final Map<String, SocketServerConfig> serverConfigs = new LinkedHashMap<>();
    private final SharedNetworkResources network;
    private final Map<String, String> properties;
    private final ReplicaManager replicaManager;
    private final BrokerLifecycleConfig lifecycleConfig;
    private final GroupCoordinatorComponents groupCoordinator;
    private final ShareGroupComponents shareGroups;
    private final FaultHandler faultHandler;
    private final TransactionComponents transactions;
    private final ClientListenerGate listenerGate;
    private final KafkaMetrics metrics;
    private final PartitionMetrics partitionMetrics;
    private volatile QuorumDescriber quorumDescriber = QuorumDescriber.NONE;
    private volatile QuorumMembership quorumMembership = QuorumMembership.NONE;
    private volatile BrokerLifecycle lifecycle;
    private boolean closed;

    /**
     * @param clientListener the node's listeners, comma-separated (e.g. PLAINTEXT://localhost:9092); those named in
     *                       controller.listener.names are the control plane's and skipped here
     * @param properties     the node's Kafka-named settings (socket.*, num.io.threads, log.*, ssl.*,
     *                       listener.security.protocol.map)
     */
    public BrokerServer(int nodeId, String clusterId, Controller controller, MetadataSource metadata,
                        String clientListener, Map<String, String> properties, TopicConfigResolver topicConfigs) {
        this(nodeId, clusterId, controller, metadata, clientListener, properties, topicConfigs,
                (message, cause) -> LOG.error("{}", message, cause));
    }

    /**
     * As the other constructor, with the node's fault handler: it stops the node when every log directory failed, or
     * when the controller does not take a failed one offline in time.
     */
    public BrokerServer(int nodeId, String clusterId, Controller controller, MetadataSource metadata,
                        String clientListener, Map<String, String> properties, TopicConfigResolver topicConfigs,
                        FaultHandler faultHandler) {
        this.faultHandler = Objects.requireNonNull(faultHandler, "faultHandler");
        this.nodeId = nodeId;
        this.clusterId = Objects.requireNonNull(clusterId, "clusterId");
        this.controller = Objects.requireNonNull(controller, "controller");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.properties = Map.copyOf(properties);
        this.listeners = Listeners.parse(clientListener, properties);
        if (listeners.brokerListeners().isEmpty()) {
            throw new ConfigException("No listener for Kafka clients in '" + clientListener + "': every one is named"
                    + " in " + Listeners.CONTROLLER_LISTENER_NAMES);
        }
        Map<String, SslContext> serverTls = new HashMap<>();
        Map<String, SaslSettings> serverSasl = new HashMap<>();
        for (Listeners.Listener listener : listeners.brokerListeners()) {
            if (listener.protocol().sasl()) {
                serverSasl.put(listener.name(), SaslSettings.forListener(listener.name(), properties));
            }
            Map<String, String> serverProperties = new HashMap<>(properties);
            serverProperties.put(SocketServerConfig.LISTENERS, listener.toString());
            serverConfigs.put(listener.name(), SocketServerConfig.fromProperties(serverProperties));
            if (listener.protocol().tls()) {
                serverTls.put(listener.name(), SslContextFactory.server(SslSettings.forListener(listener.name(),
                        properties)));
            }
        }
        Listeners.Listener interBroker = listeners.interBrokerListener().orElseThrow();
        InterBrokerSecurity interBrokerSecurity = InterBrokerSecurity.forListener(interBroker, properties);
        ReplicationConfig replication = ReplicationConfig.fromProperties(properties)
                .withInterBrokerListenerName(interBroker.name());
        this.lifecycleConfig = BrokerLifecycleConfig.fromProperties(properties);
        List<ApiHandler> handlers = new ArrayList<>();
        handlers.add(new ApiVersionsHandler(List.of(ApiVersionsHandler.TRANSACTION_VERSION,
                ApiVersionsHandler.ELIGIBLE_LEADER_REPLICAS_VERSION, ApiVersionsHandler.GROUP_VERSION,
                ApiVersionsHandler.KRAFT_VERSION),
                metadata::image, clusterId));
        handlers.addAll(AdminHandlers.create(nodeId, clusterId, controller, metadata, properties, this::brokerEpoch));
        handlers.add(new DeleteTopicsHandler(controller, metadata::image));
        handlers.add(new SaslHandshakeHandler());
        handlers.add(new SaslAuthenticateHandler());
        handlers.add(new DescribeUserScramCredentialsHandler(metadata::image));
        handlers.add(new AlterUserScramCredentialsHandler(controller));
        // Registered before the metadata log is replayed, so the replica manager sees every partition.
        // Topic settings follow dynamic broker defaults (IncrementalAlterConfigs on the broker) as well as overrides.
        this.replicaManager = new ReplicaManager(nodeId, ReplicaManagerConfig.fromProperties(properties),
                new EffectiveConfigs(nodeId, properties)::topics, System::currentTimeMillis,
                Optional.of(new ReplicaManager.Replication(replication, controller::alterPartition,
                        this::brokerEpoch, interBrokerSecurity, ReplicationQuotaConfig.windows(properties))));
        metadata.register(replicaManager);
        this.transactions = TransactionComponents.create(nodeId, this::brokerEpoch, controller, metadata,
                replicaManager, properties);
        this.metrics = KafkaMetrics.forNode();
        BrokerTopicMetrics topicMetrics = new BrokerTopicMetrics(metrics);
        // Kafka's replication throttle rates: bytes/s of throttled replicas' copying, leader and follower side.
        metrics.gauge(MetricName.of("kafka.server", "LeaderReplication", "byte-rate"),
                "Bytes per second this leader sent to throttled replicas",
                () -> replicaManager.throttles().leader().byteRate());
        metrics.gauge(MetricName.of("kafka.server", "FollowerReplication", "byte-rate"),
                "Bytes per second this follower fetched for throttled replicas",
                () -> replicaManager.throttles().follower().byteRate());
        metadata.register(new ReplicaManagerMetrics(nodeId, metrics, replicaManager::partitions));
        metadata.register(new DeletedTopicMetrics(topicMetrics));
        // After the replica manager: it sees the partitions this change made it host or drop.
        this.partitionMetrics = new PartitionMetrics(metrics, replicaManager::partitions,
                replication.numReplicaFetchers());
        metadata.register(partitionMetrics);
        handlers.add(new ProduceHandler(replicaManager, transactions.verifier(), transactions.implicitAdds(),
                topicMetrics));
        handlers.add(new FetchHandler(replicaManager,
                new FetchSessionCache(replicaManager.config().fetchSessionCacheSlots()), topicMetrics));
        handlers.add(new ListOffsetsHandler(replicaManager));
        handlers.add(new OffsetForLeaderEpochHandler(replicaManager));
        handlers.add(new DeleteRecordsHandler(replicaManager));
        handlers.add(new WriteTxnMarkersHandler(replicaManager));
        handlers.add(new DescribeQuorumHandler(() -> quorumDescriber));
        handlers.add(new AddRaftVoterHandler(() -> quorumMembership));
        handlers.add(new RemoveRaftVoterHandler(() -> quorumMembership));
        handlers.add(new DescribeProducersHandler(replicaManager));
        handlers.add(new DescribeLogDirsHandler(replicaManager::describeLogDirs));
        handlers.add(new AlterReplicaLogDirsHandler(moves -> {
            replicaManager.throttles().applyAlterLogDirs(metadata.image()); // the rate DescribeConfigs shows
            return replicaManager.alterReplicaLogDirs(moves);
        }));
        // ListGroups reports share groups too; they are built below, once the coordinator they ask exists.
        this.groupCoordinator = GroupCoordinatorComponents.create(controller, metadata, replicaManager, properties,
                this::listShareGroups);
        GroupCoordinatorMetrics.register(metrics, groupCoordinator.coordinator(), key -> replicaManager
                .partition(new TopicPartition(key.topic(), key.partition())).map(Partition::highWatermark).orElse(-1L));
        handlers.addAll(groupCoordinator.handlers());
        this.shareGroups = ShareGroupComponents.create(controller, metadata::image, replicaManager,
                interBrokerSecurity, groupCoordinator.coordinator(), properties);
        handlers.addAll(shareGroups.handlers());
        handlers.add(new TxnOffsetCommitHandler(groupCoordinator.coordinator(), transactions.verifier(),
                metadata::image, transactions.implicitAdds()));
        handlers.addAll(transactions.handlers());
        // ACLs only on a broker with an authorizer: without one, no handler is wrapped and every check is a null test.
        Optional<RequestAuthorizer> authorizer = RequestAuthorizer.fromProperties(properties);
        authorizer.ifPresent(metadata::register);
        RequestHandlerRegistry registry = authorizer.isPresent()
                ? RequestHandlerRegistry.of(AuthorizationGates.wrap(handlers), authorizer.get())
                : RequestHandlerRegistry.of(handlers);
        registry.enforce(new ClientQuotas(() -> metadata.image().clientQuotas(), QuotaWindows.fromProperties(properties),
                System::currentTimeMillis, metrics));
        // Handler threads, request memory and connection limits are the broker's, shared by its listeners as in Kafka.
        this.network = new SharedNetworkResources(serverConfigs.values().iterator().next());
        ScramCredentials scram = (user, mechanism) -> metadata.image().scram().credential(user, mechanism);
        serverConfigs.forEach((name, config) -> servers.put(name, new KafkaServer(config, registry, metrics,
                serverTls.get(name), serverSasl.get(name), scram, network)));
        this.listenerGate = new ClientListenerGate(nodeId, this::brokerEpoch, this::openClientListener);
        metadata.register(listenerGate);
    }

    private CompletableFuture<List<GroupApi.ListedGroup>> listShareGroups() {
        return shareGroups.coordinator().listed();
    }

    /**
     * Binds the broker listeners, then registers the broker with an endpoint for each and starts heartbeating; the
     * listeners accept clients once the broker is unfenced in its own metadata ({@link #ready()}).
     */
    public void start() throws InterruptedException {
        replicaManager.startup();
        List<Endpoint> endpoints = new ArrayList<>();
        for (Listeners.Listener listener : listeners.brokerListeners()) {
            KafkaServer server = servers.get(listener.name());
            server.bind();
            int port = server.boundPort();
            LOG.info("Broker {} bound {} ({}) port {}; it accepts clients once registered and unfenced", nodeId,
                    listener.name(), listener.protocol(), port);
            Map.Entry<String, Integer> advertised = SocketServerConfig.advertisedAddress(properties,
                    listener.name(), listener.host(), port);
            endpoints.add(new Endpoint(listener.name(), advertised.getKey(), advertised.getValue(),
                    listener.protocol().name()));
        }
        lifecycle = new BrokerLifecycle(controller, metadata, clusterId, nodeId, endpoints,
                lifecycleConfig, offset -> {
                    replicaManager.deleteStrayLogsOnceAt(offset);
                    listenerGate.check(metadata.image());
                }, logDirStatus(), faultHandler::handleStop);
        BrokerLifecycle started = lifecycle;
        replicaManager.setLogDirListener(new LogDirListener() {
            @Override
            public void logDirOffline(Path dir) {
                partitionMetrics.reconcile(); // the dir's partitions are no longer served: drop their metrics now
                started.heartbeatNow();
            }

            @Override
            public void allLogDirsOffline(String reason) {
                faultHandler.handleStop(reason);
            }
        });
        replicaManager.directoryAssigner().setSender(directories -> {
            long epoch = brokerEpoch();
            return epoch < 0 ? CompletableFuture.failedFuture(new IllegalStateException("not registered yet"))
                    : controller.assignReplicasToDirs(new AssignReplicasToDirsRequest(nodeId, epoch, directories));
        });
        lifecycle.start();
    }

    private void openClientListener() {
        servers.values().forEach(KafkaServer::startAccepting);
        LOG.info("Broker {} is ready: accepting Kafka clients on {}", nodeId, listening());
    }

    /** "NAME host:port" of each broker listener, comma-separated (the bound ports). */
    public String listening() {
        List<String> parts = new ArrayList<>();
        serverConfigs.forEach((name, config) -> parts.add(name + " " + config.host() + ":"
                + servers.get(name).boundPort()));
        return String.join(", ", parts);
    }

    /** Completes once the client listener accepts connections: the broker is registered, caught up and unfenced. */
    public CompletableFuture<Void> ready() {
        return listenerGate.ready();
    }

    private LogDirStatus logDirStatus() {
        return new LogDirStatus() {
            @Override
            public List<UUID> onlineLogDirs() {
                return replicaManager.onlineLogDirIds();
            }

            @Override
            public Map<Path, UUID> failedLogDirs() {
                return replicaManager.offlineLogDirs();
            }

            @Override
            public List<OfflineLogDir> offlineLogDirs() {
                return replicaManager.offlineLogDirReports();
            }

            @Override
            public long previousBrokerEpoch() {
                return replicaManager.previousBrokerEpoch();
            }
        };
    }

    public int nodeId() {
        return nodeId;
    }

    /** The port of the first broker listener (the bound one when the configured port was 0). */
    public int clientPort() {
        return servers.values().iterator().next().boundPort();
    }

    /** The bound port of the broker listener {@code name}. */
    public int listenerPort(String name) {
        KafkaServer server = servers.get(name);
        if (server == null) {
            throw new IllegalArgumentException("No broker listener " + name + "; there are " + servers.keySet());
        }
        return server.boundPort();
    }

    /** The first broker listener's settings. */
    public SocketServerConfig clientListener() {
        return serverConfigs.values().iterator().next();
    }

    /** The node's listeners, as configured. */
    public Listeners listeners() {
        return listeners;
    }

    /** Sets who answers DescribeQuorum for this broker (the node assembly, which knows the quorum). */
    public void setQuorumDescriber(QuorumDescriber describer) {
        this.quorumDescriber = Objects.requireNonNull(describer, "describer");
    }

    /** Sets who changes the quorum's voters for AddRaftVoter and RemoveRaftVoter (the node assembly). */
    public void setQuorumMembership(QuorumMembership membership) {
        this.quorumMembership = Objects.requireNonNull(membership, "membership");
    }

    /** The node's metrics (JMX and Prometheus); the node assembly adds its controller's and Raft's. */
    public KafkaMetrics metrics() {
        return metrics;
    }

    /** The broker's partitions and their logs (for coordinators that keep state in a partition). */
    public ReplicaManager replicaManager() {
        return replicaManager;
    }

    /** The broker's current registration epoch, or -1 before it has registered. */
    public long brokerEpoch() {
        BrokerLifecycle current = lifecycle;
        return current == null ? -1 : current.brokerEpoch();
    }

    /** Whether the broker has been unfenced by its controller, so Metadata lists it. */
    public boolean isUnfenced() {
        BrokerLifecycle current = lifecycle;
        return current != null && !current.isFenced();
    }

    /** Controlled shutdown (bounded), then stops serving clients and heartbeating. */
    @Override
    public void close() {
        close(true);
    }

    /**
     * Stops as a crash would, for tests: no controlled shutdown (the controller fences the broker when its session
     * times out), and the logs are left without checkpoints or clean-shutdown markers, so the next start recovers them.
     */
    public void kill() {
        close(false);
    }

    private synchronized void close(boolean clean) {
        if (closed) {
            return;
        }
        closed = true;
        if (clean && lifecycle != null) {
            // Leaderships move while clients are still served here, as in Kafka's controlled shutdown.
            lifecycle.controlledShutdown();
        }
        servers.values().forEach(KafkaServer::close);
        network.close();
        shareGroups.close();
        groupCoordinator.close();
        transactions.close();
        if (lifecycle != null) {
            // The next start tells the controller this epoch ended cleanly (KIP-966), if the logs close cleanly.
            replicaManager.setBrokerEpochForShutdown(lifecycle.brokerEpoch());
            lifecycle.close();
        }
        // Last: answers waiting requests, checkpoints and closes the logs with the clean-shutdown marker.
        if (clean) {
            replicaManager.close();
        } else {
            replicaManager.closeAsCrash();
        }
        metrics.close();
    }
}
