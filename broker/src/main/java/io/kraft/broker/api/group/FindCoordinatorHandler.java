package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupCoordinator;
import io.kraft.broker.group.OffsetsTopic;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.FindCoordinatorRequest;
import io.kraft.broker.protocol.message.FindCoordinatorResponse;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * Answers FindCoordinator (v0-6; several keys per request from v4): a group's coordinator is the leader of its
 * {@code __consumer_offsets} partition, reached on the listener the request came in on. The first lookup creates
 * the topic and answers COORDINATOR_NOT_AVAILABLE, which clients retry. A transactional id's coordinator can be any
 * live broker, since every broker forwards the transactional APIs to the active controller, where the transaction
 * coordinator runs: the answer is a hash of the id over the unfenced brokers (sorted by id), stable while their
 * membership is, which spreads the clients' connections.
 */
public final class FindCoordinatorHandler
        implements RequestHandler<FindCoordinatorRequest, FindCoordinatorResponse> {
    static final byte GROUP_KEY_TYPE = 0;
    static final byte TRANSACTION_KEY_TYPE = 1;

    private final Supplier<MetadataImage> images;
    private final OffsetsTopic offsetsTopic;
    private final int localBrokerId;
    private final IntPredicate localCoordinatorLeads;

    /**
     * @param localCoordinatorLeads whether this broker's coordinator already knows it leads a partition: until it
     *                              does, this broker is not named as that partition's coordinator
     */
    public FindCoordinatorHandler(Supplier<MetadataImage> images, OffsetsTopic offsetsTopic, int localBrokerId,
                                  IntPredicate localCoordinatorLeads) {
        this.images = Objects.requireNonNull(images, "images");
        this.offsetsTopic = Objects.requireNonNull(offsetsTopic, "offsetsTopic");
        this.localBrokerId = localBrokerId;
        this.localCoordinatorLeads = Objects.requireNonNull(localCoordinatorLeads, "localCoordinatorLeads");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.FIND_COORDINATOR;
    }

    @Override
    public FindCoordinatorResponse handle(RequestContext context, ApiRequest<FindCoordinatorRequest> request) {
        FindCoordinatorRequest body = request.body();
        short version = request.version();
        byte keyType = version >= 1 ? body.keyType() : GROUP_KEY_TYPE;
        FindCoordinatorResponse response = new FindCoordinatorResponse();
        MetadataImage image = images.get();
        if (version >= 4) {
            for (String key : body.coordinatorKeys()) {
                Lookup found = find(context, image, key, keyType);
                response.coordinators().add(new FindCoordinatorResponse.Coordinator()
                        .setKey(key)
                        .setNodeId(found.nodeId())
                        .setHost(found.host())
                        .setPort(found.port())
                        .setErrorCode(found.error().code())
                        .setErrorMessage(found.message()));
            }
            return response;
        }
        Lookup found = find(context, image, body.key(), keyType);
        return response
                .setErrorCode(found.error().code())
                .setErrorMessage(found.message())
                .setNodeId(found.nodeId())
                .setHost(found.host())
                .setPort(found.port());
    }

    private Lookup find(RequestContext context, MetadataImage image, String key, byte keyType) {
        // DESCRIBE on the group or transactional id, as Kafka checks before it looks anything up.
        if (keyType == GROUP_KEY_TYPE && key != null
                && !context.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, key)) {
            return Lookup.failed(Errors.GROUP_AUTHORIZATION_FAILED, null);
        }
        if (keyType == TRANSACTION_KEY_TYPE && key != null
                && !context.authorize(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key)) {
            return Lookup.failed(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, null);
        }
        return find(image, key, keyType, context.listenerName());
    }

    private Lookup find(MetadataImage image, String key, byte keyType, String listenerName) {
        if (keyType == TRANSACTION_KEY_TYPE) {
            return findTransactionCoordinator(image, key, listenerName);
        }
        if (keyType != GROUP_KEY_TYPE) {
            return Lookup.failed(Errors.INVALID_REQUEST, "unknown coordinator key type " + keyType);
        }
        if (key == null) {
            return Lookup.failed(Errors.INVALID_REQUEST, "a group id is required");
        }
        TopicImage topic = image.topics().topic(OffsetsTopic.NAME);
        if (topic == null || topic.partitions().isEmpty()) {
            offsetsTopic.createIfAbsent();
            return Lookup.failed(Errors.COORDINATOR_NOT_AVAILABLE, OffsetsTopic.NAME + " is being created");
        }
        int partitionId = GroupCoordinator.partitionFor(key, topic.partitions().size());
        PartitionRegistration partition = topic.partition(partitionId);
        if (partition == null || !partition.hasLeader()) {
            return Lookup.failed(Errors.COORDINATOR_NOT_AVAILABLE, "the group's partition has no leader");
        }
        if (partition.leader() == localBrokerId && !localCoordinatorLeads.test(partitionId)) {
            // The metadata is ahead of the replica manager: answering with ourselves now would earn NOT_COORDINATOR.
            return Lookup.failed(Errors.COORDINATOR_NOT_AVAILABLE, "the coordinator is starting to load");
        }
        BrokerRegistration leader = image.cluster().broker(partition.leader());
        if (leader == null || leader.fenced()) {
            return Lookup.failed(Errors.COORDINATOR_NOT_AVAILABLE, "the coordinator is not available");
        }
        Optional<Endpoint> endpoint = leader.listeners().stream()
                .filter(e -> e.name().equals(listenerName)).findFirst();
        if (endpoint.isEmpty()) {
            return Lookup.failed(Errors.COORDINATOR_NOT_AVAILABLE,
                    "the coordinator has no " + listenerName + " listener");
        }
        return new Lookup(Errors.NONE, null, leader.id(), endpoint.get().host(), endpoint.get().port());
    }

    private static Lookup findTransactionCoordinator(MetadataImage image, String key, String listenerName) {
        if (key == null || key.isEmpty()) {
            return Lookup.failed(Errors.INVALID_REQUEST, "a transactional id is required");
        }
        List<Integer> live = image.cluster().unfencedBrokerIds().stream().sorted().toList();
        if (live.isEmpty()) {
            return Lookup.failed(Errors.COORDINATOR_NOT_AVAILABLE, "no broker is available");
        }
        int hash = key.hashCode();
        int index = (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % live.size();
        BrokerRegistration broker = image.cluster().broker(live.get(index));
        Optional<Endpoint> endpoint = broker.listeners().stream()
                .filter(e -> e.name().equals(listenerName)).findFirst();
        if (endpoint.isEmpty()) {
            return Lookup.failed(Errors.COORDINATOR_NOT_AVAILABLE,
                    "the coordinator has no " + listenerName + " listener");
        }
        return new Lookup(Errors.NONE, null, broker.id(), endpoint.get().host(), endpoint.get().port());
    }

    /** One key's answer. */
    private record Lookup(Errors error, String message, int nodeId, String host, int port) {
        static Lookup failed(Errors error, String message) {
            return new Lookup(error, message, -1, "", -1);
        }
    }
}
