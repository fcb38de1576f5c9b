package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupCoordinator;
import io.kraft.broker.group.OffsetsTopic;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.FindCoordinatorMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * Answers FindCoordinator (v0-6; several keys per request from v4): a group's coordinator is the leader of its
 * {@code __consumer_offsets} partition, reached on the listener the request came in on. The first lookup creates
 * the topic and answers COORDINATOR_NOT_AVAILABLE, which clients retry. Transaction coordinators do not exist
 * yet (transactions are future work): TRANSACTION keys get INVALID_REQUEST with a message, which a Java
 * transactional producer treats as fatal and reports at once (a retriable error would leave it retrying until
 * max.block.ms with nothing to tell the user).
 */
public final class FindCoordinatorHandler implements LegacyRequestHandler {
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
    public Struct handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short version = request.version();
        byte keyType = version >= 1 ? body.getByte("key_type") : GROUP_KEY_TYPE;
        Struct response = FindCoordinatorMessages.RESPONSE.newStruct();
        MetadataImage image = images.get();
        if (version >= 4) {
            List<String> keys = body.getList("coordinator_keys");
            for (String key : keys) {
                Coordinator found = find(image, key, keyType, context.listenerName());
                Struct out = response.addStruct("coordinators");
                out.set("key", key);
                out.setInt(out.field("node_id"), found.nodeId());
                out.set("host", found.host());
                out.setInt(out.field("port"), found.port());
                out.setShort(out.field("error_code"), found.error().code());
                out.set("error_message", found.message());
            }
            return response;
        }
        Coordinator found = find(image, body.getString("key"), keyType, context.listenerName());
        response.setShort(response.field("error_code"), found.error().code());
        response.set("error_message", found.message());
        response.setInt(response.field("node_id"), found.nodeId());
        response.set("host", found.host());
        response.setInt(response.field("port"), found.port());
        return response;
    }

    private Coordinator find(MetadataImage image, String key, byte keyType, String listenerName) {
        if (keyType == TRANSACTION_KEY_TYPE) {
            return Coordinator.failed(Errors.INVALID_REQUEST, "transactions are not supported by this broker yet");
        }
        if (keyType != GROUP_KEY_TYPE) {
            return Coordinator.failed(Errors.INVALID_REQUEST, "unknown coordinator key type " + keyType);
        }
        if (key == null) {
            return Coordinator.failed(Errors.INVALID_REQUEST, "a group id is required");
        }
        TopicImage topic = image.topics().topic(OffsetsTopic.NAME);
        if (topic == null || topic.partitions().isEmpty()) {
            offsetsTopic.createIfAbsent();
            return Coordinator.failed(Errors.COORDINATOR_NOT_AVAILABLE, OffsetsTopic.NAME + " is being created");
        }
        int partitionId = GroupCoordinator.partitionFor(key, topic.partitions().size());
        PartitionRegistration partition = topic.partition(partitionId);
        if (partition == null || !partition.hasLeader()) {
            return Coordinator.failed(Errors.COORDINATOR_NOT_AVAILABLE, "the group's partition has no leader");
        }
        if (partition.leader() == localBrokerId && !localCoordinatorLeads.test(partitionId)) {
            // The metadata is ahead of the replica manager: answering with ourselves now would earn NOT_COORDINATOR.
            return Coordinator.failed(Errors.COORDINATOR_NOT_AVAILABLE, "the coordinator is starting to load");
        }
        BrokerRegistration leader = image.cluster().broker(partition.leader());
        if (leader == null || leader.fenced()) {
            return Coordinator.failed(Errors.COORDINATOR_NOT_AVAILABLE, "the coordinator is not available");
        }
        Optional<Endpoint> endpoint = leader.listeners().stream()
                .filter(e -> e.name().equals(listenerName)).findFirst();
        if (endpoint.isEmpty()) {
            return Coordinator.failed(Errors.COORDINATOR_NOT_AVAILABLE,
                    "the coordinator has no " + listenerName + " listener");
        }
        return new Coordinator(Errors.NONE, null, leader.id(), endpoint.get().host(), endpoint.get().port());
    }

    /** One key's answer. */
    private record Coordinator(Errors error, String message, int nodeId, String host, int port) {
        static Coordinator failed(Errors error, String message) {
            return new Coordinator(error, message, -1, "", -1);
        }
    }
}
