package io.kraft.broker.api.admin;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeTopicPartitionsRequest;
import io.kraft.broker.protocol.message.DescribeTopicPartitionsRequest.TopicRequest;
import io.kraft.broker.protocol.message.DescribeTopicPartitionsResponse;
import io.kraft.broker.protocol.message.DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponsePartition;
import io.kraft.broker.protocol.message.DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponseTopic;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Answers DescribeTopicPartitions (v0, KIP-966) from the metadata image: the named topics, or every topic, in name
 * order, their partitions paged by the request's partition limit (at most {@link #MAX_PARTITIONS}) with a cursor to
 * the next page; with an authorizer, only topics the client may DESCRIBE. Kafka 3.8+ Admin clients (and so
 * kafka-topics.sh --describe) describe topics by name with it.
 */
public final class DescribeTopicPartitionsHandler
        implements RequestHandler<DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse> {
    /** The most partitions one response carries, whatever the request asks (Kafka's default page limit). */
    static final int MAX_PARTITIONS = 2000;
    private static final UUID ZERO_UUID = new UUID(0L, 0L);
    private static final Set<String> INTERNAL_TOPICS = Set.of("__consumer_offsets", "__transaction_state");

    private final Supplier<MetadataImage> images;

    public DescribeTopicPartitionsHandler(Supplier<MetadataImage> images) {
        this.images = Objects.requireNonNull(images, "images");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_TOPIC_PARTITIONS;
    }

    @Override
    public DescribeTopicPartitionsResponse handle(RequestContext context,
                                                  ApiRequest<DescribeTopicPartitionsRequest> request) {
        MetadataImage image = images.get();
        DescribeTopicPartitionsRequest body = request.body();
        TreeSet<String> names = new TreeSet<>();
        if (body.topics().isEmpty()) {
            // Every topic the client may see; the others are left out, as Metadata does.
            image.topics().topicsByName().keySet().stream()
                    .filter(name -> context.authorizeQuietly(AclOperation.DESCRIBE, ResourceType.TOPIC, name))
                    .forEach(names::add);
        } else {
            body.topics().stream().map(TopicRequest::name).filter(Objects::nonNull).forEach(names::add);
        }
        DescribeTopicPartitionsResponse response = new DescribeTopicPartitionsResponse();
        DescribeTopicPartitionsRequest.Cursor cursor = body.cursor();
        if (cursor != null) {
            if (!body.topics().isEmpty() && !names.contains(cursor.topicName())) {
                // A cursor must point into what is asked for; Kafka refuses the request the same way.
                for (String name : names) {
                    response.topics().add(unknown(name, Errors.INVALID_REQUEST));
                }
                return response;
            }
            names = new TreeSet<>(names.tailSet(cursor.topicName(), true));
        }
        int limit = body.responsePartitionLimit() <= 0 ? MAX_PARTITIONS
                : Math.min(body.responsePartitionLimit(), MAX_PARTITIONS);
        Set<Integer> live = liveBrokers(image);
        int remaining = limit;
        for (String name : names) {
            if (!context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name)) {
                response.topics().add(unknown(name, Errors.TOPIC_AUTHORIZATION_FAILED));
                continue;
            }
            TopicImage topic = image.topics().topic(name);
            if (topic == null) {
                response.topics().add(unknown(name, Errors.UNKNOWN_TOPIC_OR_PARTITION));
                continue;
            }
            int first = cursor != null && name.equals(cursor.topicName()) ? Math.max(0, cursor.partitionIndex()) : 0;
            TreeMap<Integer, PartitionRegistration> partitions = new TreeMap<>(topic.partitions());
            if (remaining == 0) {
                response.setNextCursor(new DescribeTopicPartitionsResponse.Cursor().setTopicName(name)
                        .setPartitionIndex(first));
                break;
            }
            DescribeTopicPartitionsResponseTopic out = new DescribeTopicPartitionsResponseTopic()
                    .setErrorCode(Errors.NONE.code())
                    .setName(name)
                    .setTopicId(topic.id())
                    .setIsInternal(INTERNAL_TOPICS.contains(name))
                    .setTopicAuthorizedOperations(context.authorizedOperations(ResourceType.TOPIC, name));
            response.topics().add(out);
            for (var entry : partitions.tailMap(first, true).entrySet()) {
                if (remaining == 0) {
                    response.setNextCursor(new DescribeTopicPartitionsResponse.Cursor().setTopicName(name)
                            .setPartitionIndex(entry.getKey()));
                    return response;
                }
                out.partitions().add(partition(entry.getKey(), entry.getValue(), live));
                remaining--;
            }
        }
        return response;
    }

    private static DescribeTopicPartitionsResponseTopic unknown(String name, Errors error) {
        return new DescribeTopicPartitionsResponseTopic().setErrorCode(error.code()).setName(name)
                .setTopicId(ZERO_UUID).setIsInternal(false);
    }

    private static DescribeTopicPartitionsResponsePartition partition(int partitionId, PartitionRegistration partition,
                                                                      Set<Integer> live) {
        boolean leaderReachable = partition.hasLeader() && live.contains(partition.leader());
        DescribeTopicPartitionsResponsePartition out = new DescribeTopicPartitionsResponsePartition()
                .setErrorCode(leaderReachable ? Errors.NONE.code() : Errors.LEADER_NOT_AVAILABLE.code())
                .setPartitionIndex(partitionId)
                .setLeaderId(partition.leader())
                .setLeaderEpoch(partition.leaderEpoch())
                // Eligible leader replicas (KIP-966): empty, never null, while the feature is off, as Kafka answers.
                .setEligibleLeaderReplicas(new ArrayList<>(partition.elr()))
                .setLastKnownElr(new ArrayList<>(partition.lastKnownElr()));
        for (int replica : partition.replicas()) {
            out.replicaNodes().add(replica);
            if (!live.contains(replica)) {
                out.offlineReplicas().add(replica);
            }
        }
        for (int inSync : partition.isr()) {
            out.isrNodes().add(inSync);
        }
        return out;
    }

    private static Set<Integer> liveBrokers(MetadataImage image) {
        Set<Integer> live = new HashSet<>();
        for (BrokerRegistration broker : image.cluster().brokers().values()) {
            if (!broker.fenced()) {
                live.add(broker.id());
            }
        }
        return live;
    }
}
