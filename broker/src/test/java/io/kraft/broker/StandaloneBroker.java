package io.kraft.broker;

import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.api.data.DeleteRecordsHandler;
import io.kraft.broker.api.data.DescribeProducersHandler;
import io.kraft.broker.api.data.InitProducerIdHandler;
import io.kraft.broker.api.data.ListOffsetsHandler;
import io.kraft.broker.api.data.MetadataHandler;
import io.kraft.broker.api.data.OffsetForLeaderEpochHandler;
import io.kraft.broker.api.data.ProduceHandler;
import io.kraft.broker.api.data.WriteTxnMarkersHandler;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.fetch.FetchHandler;
import io.kraft.broker.fetch.FetchSessionCache;
import io.kraft.broker.network.ApiHandler;
import io.kraft.broker.network.KafkaServer;
import io.kraft.broker.network.RequestHandlerRegistry;
import io.kraft.broker.security.RequestAuthorizer;
import io.kraft.broker.api.AuthorizationGates;
import io.kraft.broker.network.SocketServerConfig;
import io.kraft.broker.producer.ProducerIdManager;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.broker.replica.ReplicaManagerConfig;
import io.kraft.config.LogConfigs;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.ProducerIdBlock;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.BrokerEndpoint;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.ConfigResourceType;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Broker 1 without Raft or a controller, for fast data-path tests with real Kafka clients: the wire server with
 * the data-path handlers (plus ApiVersions, Metadata, InitProducerId, WriteTxnMarkers and DescribeProducers), a real {@link ReplicaManager} over a
 * temporary log directory, and metadata the test publishes itself (topics, configs, leader changes). The broker
 * can advertise another port than it listens on, so a test proxy can sit between clients and it.
 */
public final class StandaloneBroker implements AutoCloseable {
    public static final String CLUSTER_ID = "dAtApAtHcLuStErId0000w";
    public static final int BROKER_ID = 1;

    private final Path logDir;
    private final Map<String, String> properties;
    private final ReplicaManager replicaManager;
    private final KafkaServer server;
    private final AtomicLong nextOffset = new AtomicLong();
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private final RequestAuthorizer authorizer;

    /** Starts on an ephemeral port and advertises it. */
    public StandaloneBroker(Path logDir, Map<String, String> extraProperties) throws InterruptedException {
        this(logDir, extraProperties, -1);
    }

    /** @param advertisedPort the port Metadata answers name for this broker, or -1 for the bound one */
    public StandaloneBroker(Path logDir, Map<String, String> extraProperties, int advertisedPort)
            throws InterruptedException {
        this.logDir = logDir;
        this.properties = new HashMap<>(extraProperties);
        properties.putIfAbsent(LogConfigs.LOG_DIRS, logDir.toString());
        // As BrokerServer does: topic settings follow dynamic broker defaults as well as topic overrides.
        EffectiveConfigs configs = new EffectiveConfigs(BROKER_ID, properties);
        replicaManager = new ReplicaManager(BROKER_ID, ReplicaManagerConfig.fromProperties(properties), configs::topics,
                System::currentTimeMillis, Optional.empty());
        replicaManager.startup();
        ProducerIdManager producerIds = new ProducerIdManager(BROKER_ID, () -> 1L, new BlockSource(), 5_000);
        List<ApiHandler> handlers = List.of(new ApiVersionsHandler(),
                new MetadataHandler(() -> image, CLUSTER_ID),
                new ListOffsetsHandler(replicaManager),
                new OffsetForLeaderEpochHandler(replicaManager),
                new DeleteRecordsHandler(replicaManager),
                new WriteTxnMarkersHandler(replicaManager),
                new DescribeProducersHandler(replicaManager),
                new ProduceHandler(replicaManager),
                new InitProducerIdHandler(producerIds, () -> image, StandaloneBroker::noTransactionCoordinator),
                new FetchHandler(replicaManager, new FetchSessionCache(
                        replicaManager.config().fetchSessionCacheSlots())));
        Map<String, String> socketProperties = new HashMap<>(properties);
        socketProperties.put(SocketServerConfig.LISTENERS, "PLAINTEXT://127.0.0.1:0");
        // With authorizer.class.name set, requests are checked against the ACLs the test publishes.
        authorizer = RequestAuthorizer.fromProperties(properties).orElse(null);
        server = new KafkaServer(SocketServerConfig.fromProperties(socketProperties), authorizer == null
                ? RequestHandlerRegistry.of(handlers)
                : RequestHandlerRegistry.of(AuthorizationGates.wrap(handlers), authorizer));
        server.start();
        publish(List.of(MetadataRecords.of(RegisterBrokerRecord.newBuilder()
                .setBrokerId(BROKER_ID)
                .setIncarnationId(Uuids.toProto(new UUID(0L, BROKER_ID)))
                .setBrokerEpoch(1)
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1")
                        .setPort(advertisedPort >= 0 ? advertisedPort : server.boundPort())
                        .setSecurityProtocol("PLAINTEXT"))
                .setFenced(false)
                .build())));
    }

    /** The port the broker listens on. */
    public int port() {
        return server.boundPort();
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port();
    }

    /** The wire server, for its request-memory and connection counts. */
    public KafkaServer server() {
        return server;
    }

    public ReplicaManager replicaManager() {
        return replicaManager;
    }

    public Path logDir() {
        return logDir;
    }

    public Map<String, String> properties() {
        return Map.copyOf(properties);
    }

    public MetadataImage image() {
        return image;
    }

    /** Creates a topic led by this broker (epoch 0) with its config overrides; returns its id. */
    public UUID createTopic(String name, int partitions, Map<String, String> configs) {
        return createTopic(name, UUID.randomUUID(), partitions, configs, List.of(BROKER_ID), List.of(BROKER_ID));
    }

    /**
     * Creates a topic with the given id, led by this broker (epoch 0), each partition with {@code replicas} and
     * in-sync replicas {@code isr}.
     */
    public UUID createTopic(String name, UUID topicId, int partitions, Map<String, String> configs,
                            List<Integer> replicas, List<Integer> isr) {
        List<MetadataRecord> records = new ArrayList<>();
        records.add(MetadataRecords.of(TopicRecord.newBuilder().setName(name).setTopicId(Uuids.toProto(topicId)).build()));
        configs.forEach((key, value) -> records.add(MetadataRecords.of(ConfigRecord.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC).setResourceName(name)
                .setName(key).setValue(value).build())));
        for (int p = 0; p < partitions; p++) {
            records.add(MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(topicId))
                    .setPartitionId(p).addAllReplicas(replicas).addAllIsr(isr).setLeader(BROKER_ID)
                    .setLeaderEpoch(0).setPartitionEpoch(0).build()));
        }
        publish(records);
        return topicId;
    }

    /** Re-elects this broker for one partition: its leader epoch grows by one. */
    public void bumpLeaderEpoch(UUID topicId, int partition) {
        publish(List.of(MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(topicId))
                .setPartitionId(partition).setLeader(BROKER_ID).build())));
    }

    /** Makes {@code newLeader} the partition's leader (a new leader epoch). */
    public void moveLeader(UUID topicId, int partition, int newLeader) {
        publish(List.of(MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(topicId))
                .setPartitionId(partition).setLeader(newLeader).build())));
    }

    public void deleteTopic(UUID topicId) {
        publish(List.of(MetadataRecords.of(RemoveTopicRecord.newBuilder().setTopicId(Uuids.toProto(topicId)).build())));
    }

    /** Sets a topic config override (as a committed IncrementalAlterConfigs would). */
    public void setTopicConfig(String topic, String key, String value) {
        publish(List.of(MetadataRecords.of(ConfigRecord.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC).setResourceName(topic)
                .setName(key).setValue(value).build())));
    }

    /** Registers another (unfenced) broker on the PLAINTEXT listener at 127.0.0.1:{@code port}. */
    public void registerBroker(int brokerId, int port) {
        publish(List.of(MetadataRecords.of(RegisterBrokerRecord.newBuilder()
                .setBrokerId(brokerId)
                .setIncarnationId(Uuids.toProto(new UUID(0L, brokerId)))
                .setBrokerEpoch(1)
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1").setPort(port)
                        .setSecurityProtocol("PLAINTEXT"))
                .setFenced(false)
                .build())));
    }

    /** Sets a cluster-wide dynamic broker default (as IncrementalAlterConfigs on broker "" would). */
    public void setBrokerDefault(String key, String value) {
        publish(List.of(MetadataRecords.of(ConfigRecord.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER).setResourceName("")
                .setName(key).setValue(value).build())));
    }

    /** Replays records into a new image and hands image and delta to the replica manager, as a controller does. */
    public synchronized void publish(List<MetadataRecord> records) {
        MetadataDelta delta = new MetadataDelta(image);
        for (MetadataRecord record : records) {
            delta.replay(record, nextOffset.getAndIncrement(), 1);
        }
        MetadataImage next = delta.apply();
        replicaManager.publish(delta, next);
        if (authorizer != null) {
            authorizer.publish(delta, next);
        }
        image = next;
    }

    @Override
    public void close() {
        server.close();
        replicaManager.close();
    }

    /** Producer id blocks of 1000, as the controller would hand out. */
    private static final class BlockSource implements ProducerIdManager.BlockSource {
        private long next;

        @Override
        public synchronized CompletableFuture<ProducerIdBlock> allocate(int brokerId, long brokerEpoch) {
            ProducerIdBlock block = new ProducerIdBlock(brokerId, next, 1000);
            next += 1000;
            return CompletableFuture.completedFuture(block);
        }
    }

    /** A standalone broker has no controller, so no transaction coordinator: transactional ids are refused. */
    private static java.util.concurrent.CompletableFuture<io.kraft.metadata.controller.TransactionalProducer>
            noTransactionCoordinator(String transactionalId, int timeoutMs, long producerId, short producerEpoch) {
        return java.util.concurrent.CompletableFuture.failedFuture(new io.kraft.metadata.controller.ControllerException(
                io.kraft.storage.errors.Errors.NOT_CONTROLLER, "no transaction coordinator in a standalone broker"));
    }
}
