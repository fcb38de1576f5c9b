package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.MetadataRequest;
import io.kraft.broker.protocol.message.MetadataRequest.MetadataRequestTopic;
import io.kraft.broker.protocol.message.MetadataResponse;
import io.kraft.broker.protocol.message.MetadataResponse.MetadataResponseBroker;
import io.kraft.broker.protocol.message.MetadataResponse.MetadataResponsePartition;
import io.kraft.broker.protocol.message.MetadataResponse.MetadataResponseTopic;
import io.kraft.metadata.controller.TopicNames;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.authorizer.StandardAcl;
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
public final class MetadataHandler implements RequestHandler<MetadataRequest, MetadataResponse> {
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
    public MetadataResponse handle(RequestContext context, ApiRequest<MetadataRequest> request) {
        MetadataImage image = images.get();
        short version = request.version();
        MetadataRequest body = request.body();
        Map<Integer, Endpoint> liveEndpoints = liveEndpoints(image, context.listenerName());
        MetadataResponse response = new MetadataResponse();
        for (Map.Entry<Integer, Endpoint> broker : liveEndpoints.entrySet()) {
            Optional<String> rack = image.cluster().broker(broker.getKey()).rack();
            response.brokers().add(new MetadataResponseBroker()
                    .setNodeId(broker.getKey())
                    .setHost(broker.getValue().host())
                    .setPort(broker.getValue().port())
                    .setRack(rack.orElse(null)));
        }
        response.setClusterId(clusterId);
        // KRaft brokers do not expose the controller quorum to clients: Kafka names a live broker instead.
        response.setControllerId(liveEndpoints.isEmpty() ? -1 : liveEndpoints.keySet().iterator().next());
        List<MetadataRequestTopic> requested = body.topics();
        boolean allTopics = requested == null || (version == 0 && requested.isEmpty());
        boolean autoCreate = autoCreator != null && (version < 4 || body.allowAutoTopicCreation());
        Described described = new Described(context, version >= 8 && body.includeTopicAuthorizedOperations());
        if (allTopics) {
            // Topics the principal may not describe are left out, as Kafka does.
            image.topics().topicsByName().values().stream()
                    .filter(topic -> context.authorizeQuietly(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.name()))
                    .sorted(Comparator.comparing(TopicImage::name))
                    .forEach(topic -> addTopic(response, topic, liveEndpoints.keySet(), described));
        } else {
            for (MetadataRequestTopic wanted : requested) {
                addRequestedTopic(context, response, image, wanted, version, liveEndpoints.keySet(), autoCreate,
                        described);
            }
        }
        if (version >= 8 && version <= 10 && body.includeClusterAuthorizedOperations()) {
            response.setClusterAuthorizedOperations(context.authorizedOperations(ResourceType.CLUSTER,
                    StandardAcl.CLUSTER_NAME));
        }
        return response;
    }

    /** The authorized-operations field of each topic: computed only when the client asks for it. */
    private record Described(RequestContext context, boolean included) {
        int operations(String topic) {
            return included ? context.authorizedOperations(ResourceType.TOPIC, topic) : AUTHORIZED_OPERATIONS_OMITTED;
        }
    }

    private static MetadataResponseTopic unauthorized(String name, UUID topicId) {
        return new MetadataResponseTopic().setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setName(name)
                .setTopicId(topicId).setTopicAuthorizedOperations(AUTHORIZED_OPERATIONS_OMITTED);
    }

    private void addRequestedTopic(RequestContext context, MetadataResponse response, MetadataImage image,
                                   MetadataRequestTopic wanted, short version, Set<Integer> liveBrokers,
                                   boolean autoCreate, Described described) {
        String name = wanted.name();
        UUID topicId = version >= 10 ? wanted.topicId() : ZERO_UUID;
        // A request by id leaves the name null (or, from some clients, empty).
        if ((name == null || name.isEmpty()) && topicId != null && !topicId.equals(ZERO_UUID)) {
            TopicImage topic = image.topics().topic(topicId);
            if (topic == null) {
                response.topics().add(new MetadataResponseTopic()
                        .setErrorCode(Errors.UNKNOWN_TOPIC_ID.code())
                        // The name is nullable only from v12; older versions get an empty one.
                        .setName(version >= 12 ? null : "")
                        .setTopicId(topicId)
                        .setTopicAuthorizedOperations(AUTHORIZED_OPERATIONS_OMITTED));
                return;
            }
            if (!context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.name())) {
                response.topics().add(unauthorized(version >= 12 ? null : "", topicId));
                return;
            }
            addTopic(response, topic, liveBrokers, described);
            return;
        }
        if (name != null && !context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name)) {
            response.topics().add(unauthorized(name, ZERO_UUID));
            return;
        }
        TopicImage topic = name == null ? null : image.topics().topic(name);
        if (topic == null) {
            if (autoCreate && name != null && !context.authorizeCluster(AclOperation.CREATE)
                    && !context.authorize(AclOperation.CREATE, ResourceType.TOPIC, name)) {
                response.topics().add(unauthorized(name, ZERO_UUID));
                return;
            }
            response.topics().add(new MetadataResponseTopic()
                    .setErrorCode(autoCreate && name != null ? autoCreate(name) : Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                    .setName(name == null ? "" : name)
                    .setTopicId(ZERO_UUID)
                    .setTopicAuthorizedOperations(AUTHORIZED_OPERATIONS_OMITTED));
            return;
        }
        addTopic(response, topic, liveBrokers, described);
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

    private static void addTopic(MetadataResponse response, TopicImage topic, Set<Integer> liveBrokers,
                                 Described described) {
        MetadataResponseTopic out = new MetadataResponseTopic()
                .setErrorCode(Errors.NONE.code())
                .setName(topic.name())
                .setTopicId(topic.id())
                .setIsInternal(INTERNAL_TOPICS.contains(topic.name()))
                .setTopicAuthorizedOperations(described.operations(topic.name()));
        new TreeMap<>(topic.partitions()).forEach((partitionId, partition) ->
                out.partitions().add(partition(partitionId, partition, liveBrokers)));
        response.topics().add(out);
    }

    private static MetadataResponsePartition partition(int partitionId, PartitionRegistration partition,
                                                       Set<Integer> liveBrokers) {
        boolean leaderReachable = partition.hasLeader() && liveBrokers.contains(partition.leader());
        MetadataResponsePartition out = new MetadataResponsePartition()
                .setErrorCode(leaderReachable ? Errors.NONE.code() : Errors.LEADER_NOT_AVAILABLE.code())
                .setPartitionIndex(partitionId)
                .setLeaderId(partition.leader())
                .setLeaderEpoch(partition.leaderEpoch());
        for (int replica : partition.replicas()) {
            out.replicaNodes().add(replica);
            if (!liveBrokers.contains(replica)) {
                out.offlineReplicas().add(replica);
            }
        }
        for (int inSync : partition.isr()) {
            out.isrNodes().add(inSync);
        }
        return out;
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
