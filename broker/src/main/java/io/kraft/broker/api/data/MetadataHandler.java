package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.MetadataMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.metadata.controller.TopicNames;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Answers Metadata (v0-13) from the current {@link MetadataImage}: the unfenced brokers' endpoints on the
 * request's listener, the cluster id, a controller id, and the requested topics (all topics when the
 * request asks for all) with their partitions. An unknown topic is reported (UNKNOWN_TOPIC_OR_PARTITION), or,
 * with a {@link TopicAutoCreator} and a request that allows it (always before v4, allow_auto_topic_creation
 * from v4), created with the broker's num.partitions and default.replication.factor and answered
 * LEADER_NOT_AVAILABLE until it exists, as Kafka does; an invalid name is then INVALID_TOPIC_EXCEPTION.
 * Internal topics are never auto-created here.
 */
public final class MetadataHandler implements LegacyRequestHandler {
    /** Kafka's "authorized operations not computed" marker. */
    private static final int AUTHORIZED_OPERATIONS_OMITTED = Integer.MIN_VALUE;
    private static final UUID ZERO_UUID = new UUID(0L, 0L);
    private static final Set<String> INTERNAL_TOPICS = Set.of("__consumer_offsets", "__transaction_state");

    private final Supplier<MetadataImage> images;
    private final String clusterId;
    /** Null when auto.create.topics.enable is off. */
    private final TopicAutoCreator autoCreator;

    /** A handler that never creates topics. */
    public MetadataHandler(Supplier<MetadataImage> images, String clusterId) {
        this(images, clusterId, null);
    }

    /** @param autoCreator creates unknown topics clients ask for, or null to never create them */
    public MetadataHandler(Supplier<MetadataImage> images, String clusterId, TopicAutoCreator autoCreator) {
        this.images = Objects.requireNonNull(images, "images");
        this.clusterId = Objects.requireNonNull(clusterId, "clusterId");
        this.autoCreator = autoCreator;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.METADATA;
    }

    @Override
    public Struct handle(RequestContext context, ParsedRequest request) {
        MetadataImage image = images.get();
        short version = request.version();
        Map<Integer, Endpoint> liveEndpoints = liveEndpoints(image, context.listenerName());
        Struct response = MetadataMessages.RESPONSE.newStruct();
        for (Map.Entry<Integer, Endpoint> broker : liveEndpoints.entrySet()) {
            Struct out = response.addStruct(response.field("brokers"));
            out.setInt(out.field("node_id"), broker.getKey());
            out.set(out.field("host"), broker.getValue().host());
            out.setInt(out.field("port"), broker.getValue().port());
            Optional<String> rack = image.cluster().broker(broker.getKey()).rack();
            out.set(out.field("rack"), rack.orElse(null));
        }
        response.set(response.field("cluster_id"), clusterId);
        // KRaft brokers do not expose the controller quorum to clients: Kafka names a live broker instead.
        response.setInt(response.field("controller_id"),
                liveEndpoints.isEmpty() ? -1 : liveEndpoints.keySet().iterator().next());
        List<Struct> requested = request.body().getStructs(request.body().field("topics"));
        boolean allTopics = requested == null || (version == 0 && requested.isEmpty());
        boolean autoCreate = autoCreator != null
                && (version < 4 || request.body().getBoolean(request.body().field("allow_auto_topic_creation")));
        if (allTopics) {
            image.topics().topicsByName().values().stream()
                    .sorted(Comparator.comparing(TopicImage::name))
                    .forEach(topic -> addTopic(response, topic, liveEndpoints.keySet()));
        } else {
            for (Struct wanted : requested) {
                addRequestedTopic(response, image, wanted, version, liveEndpoints.keySet(), autoCreate);
            }
        }
        return response;
    }

    private void addRequestedTopic(Struct response, MetadataImage image, Struct wanted, short version,
                                   Set<Integer> liveBrokers, boolean autoCreate) {
        String name = wanted.getString(wanted.field("name"));
        UUID topicId = version >= 10 ? wanted.getUuid(wanted.field("topic_id")) : ZERO_UUID;
        // A request by id leaves the name null (or, from some clients, empty).
        if ((name == null || name.isEmpty()) && topicId != null && !topicId.equals(ZERO_UUID)) {
            TopicImage topic = image.topics().topic(topicId);
            if (topic == null) {
                Struct out = response.addStruct(response.field("topics"));
                out.setShort(out.field("error_code"), Errors.UNKNOWN_TOPIC_ID.code());
                // The name is nullable only from v12; older versions get an empty one.
                out.set(out.field("name"), version >= 12 ? null : "");
                out.set(out.field("topic_id"), topicId);
                out.setInt(out.field("topic_authorized_operations"), AUTHORIZED_OPERATIONS_OMITTED);
                return;
            }
            addTopic(response, topic, liveBrokers);
            return;
        }
        TopicImage topic = name == null ? null : image.topics().topic(name);
        if (topic == null) {
            Struct out = response.addStruct(response.field("topics"));
            out.setShort(out.field("error_code"), autoCreate && name != null ? autoCreate(name)
                    : Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            out.set(out.field("name"), name == null ? "" : name);
            out.set(out.field("topic_id"), ZERO_UUID);
            out.setInt(out.field("topic_authorized_operations"), AUTHORIZED_OPERATIONS_OMITTED);
            return;
        }
        addTopic(response, topic, liveBrokers);
    }

    /** Starts creating an unknown topic; answers the error code the client gets meanwhile. */
    private short autoCreate(String name) {
        if (INTERNAL_TOPICS.contains(name)) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION.code();
        }
        if (TopicNames.invalidReason(name) != null) {
            return Errors.INVALID_TOPIC_EXCEPTION.code();
        }
        autoCreator.create(name);
        return Errors.LEADER_NOT_AVAILABLE.code();
    }

    private static void addTopic(Struct response, TopicImage topic, Set<Integer> liveBrokers) {
        Struct out = response.addStruct(response.field("topics"));
        out.setShort(out.field("error_code"), Errors.NONE.code());
        out.set(out.field("name"), topic.name());
        out.set(out.field("topic_id"), topic.id());
        out.setBoolean(out.field("is_internal"), INTERNAL_TOPICS.contains(topic.name()));
        out.setInt(out.field("topic_authorized_operations"), AUTHORIZED_OPERATIONS_OMITTED);
        new TreeMap<>(topic.partitions()).forEach((partitionId, partition) ->
                addPartition(out.addStruct(out.field("partitions")), partitionId, partition, liveBrokers));
    }

    private static void addPartition(Struct out, int partitionId, PartitionRegistration partition,
                                     Set<Integer> liveBrokers) {
        boolean leaderReachable = partition.hasLeader() && liveBrokers.contains(partition.leader());
        out.setShort(out.field("error_code"), leaderReachable ? Errors.NONE.code() : Errors.LEADER_NOT_AVAILABLE.code());
        out.setInt(out.field("partition_index"), partitionId);
        out.setInt(out.field("leader_id"), partition.leader());
        out.setInt(out.field("leader_epoch"), partition.leaderEpoch());
        for (int replica : partition.replicas()) {
            out.addToList(out.field("replica_nodes"), replica);
            if (!liveBrokers.contains(replica)) {
                out.addToList(out.field("offline_replicas"), replica);
            }
        }
        for (int inSync : partition.isr()) {
            out.addToList(out.field("isr_nodes"), inSync);
        }
    }

    /** Unfenced brokers that have an endpoint on this listener, by id (sorted). */
    private static Map<Integer, Endpoint> liveEndpoints(MetadataImage image, String listenerName) {
        Map<Integer, Endpoint> endpoints = new TreeMap<>();
        for (BrokerRegistration broker : image.cluster().brokers().values()) {
            if (broker.fenced()) {
                continue;
            }
            broker.listeners().stream()
                    .filter(endpoint -> endpoint.name().equals(listenerName))
                    .findFirst()
                    .ifPresent(endpoint -> endpoints.put(broker.id(), endpoint));
        }
        return endpoints;
    }
}
