package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.FetchedOffset;
import io.kraft.broker.group.GroupApi.OffsetFetchResult;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.OffsetKey;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.OffsetFetchRequest;
import io.kraft.broker.protocol.message.OffsetFetchRequest.OffsetFetchRequestGroup;
import io.kraft.broker.protocol.message.OffsetFetchRequest.OffsetFetchRequestTopic;
import io.kraft.broker.protocol.message.OffsetFetchRequest.OffsetFetchRequestTopics;
import io.kraft.broker.protocol.message.OffsetFetchResponse;
import io.kraft.broker.protocol.message.OffsetFetchResponse.OffsetFetchResponseGroup;
import io.kraft.broker.protocol.message.OffsetFetchResponse.OffsetFetchResponsePartition;
import io.kraft.broker.protocol.message.OffsetFetchResponse.OffsetFetchResponsePartitions;
import io.kraft.broker.protocol.message.OffsetFetchResponse.OffsetFetchResponseTopic;
import io.kraft.broker.protocol.message.OffsetFetchResponse.OffsetFetchResponseTopics;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Answers OffsetFetch (v1-9): committed offsets of the listed partitions, or of all when the topics are null
 * (v2+); from v8 several groups per request, each with its own error (KIP-709). v1 has no group-level error
 * field, so a group-level error is reported on every partition there.
 */
public final class OffsetFetchHandler implements AsyncRequestHandler<OffsetFetchRequest, OffsetFetchResponse> {
    private final GroupCoordinatorService coordinator;

    public OffsetFetchHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.OFFSET_FETCH;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<OffsetFetchRequest> request) {
        OffsetFetchRequest body = request.body();
        short version = request.version();
        boolean requireStable = version >= 7 && body.requireStable();
        if (version < 8) {
            if (!context.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, body.groupId())) {
                return CompletableFuture.completedFuture(HandlerResponse.of(
                        errorResponse(request, Errors.GROUP_AUTHORIZATION_FAILED).orElseThrow()));
            }
            List<OffsetKey> partitions = null;
            if (body.topics() != null) {
                partitions = new ArrayList<>();
                for (OffsetFetchRequestTopic topic : body.topics()) {
                    addPartitions(partitions, topic.name(), topic.partitionIndexes());
                }
            }
            List<OffsetKey> requested = partitions;
            return Requests.respond(coordinator.fetchOffsets(body.groupId(), requested, requireStable),
                    result -> singleGroupResponse(visible(context, result, requested != null), requested, version));
        }
        List<OffsetFetchRequestGroup> groups = body.groups();
        List<CompletableFuture<OffsetFetchResult>> answers = new ArrayList<>();
        for (OffsetFetchRequestGroup group : groups) {
            if (!context.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, group.groupId())) {
                answers.add(CompletableFuture.completedFuture(new OffsetFetchResult(Errors.GROUP_AUTHORIZATION_FAILED,
                        List.of())));
                continue;
            }
            List<OffsetKey> partitions = null;
            if (group.topics() != null) {
                partitions = new ArrayList<>();
                for (OffsetFetchRequestTopics topic : group.topics()) {
                    addPartitions(partitions, topic.name(), topic.partitionIndexes());
                }
            }
            boolean explicit = partitions != null;
            answers.add(coordinator.fetchOffsets(group.groupId(), partitions, requireStable)
                    .thenApply(result -> visible(context, result, explicit)));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            OffsetFetchResponse response = new OffsetFetchResponse();
            for (int i = 0; i < groups.size(); i++) {
                OffsetFetchResult result = answers.get(i).join();
                OffsetFetchResponseGroup out = new OffsetFetchResponseGroup()
                        .setGroupId(groups.get(i).groupId())
                        .setErrorCode(result.error().code());
                if (result.error() == Errors.NONE) {
                    out.setTopics(groupTopics(result.offsets()));
                }
                response.groups().add(out);
            }
            return HandlerResponse.of(response);
        });
    }

    /**
     * The offsets the principal may see (DESCRIBE on the topic): a partition it named of a topic it may not describe
     * is TOPIC_AUTHORIZATION_FAILED; when it asked for every partition such topics are left out.
     */
    private static OffsetFetchResult visible(RequestContext context, OffsetFetchResult result, boolean explicit) {
        if (!context.authorizationEnabled() || result.error() != Errors.NONE) {
            return result;
        }
        Map<String, Boolean> describable = new HashMap<>();
        List<FetchedOffset> offsets = new ArrayList<>(result.offsets().size());
        for (FetchedOffset offset : result.offsets()) {
            String topic = offset.partition().topic();
            if (describable.computeIfAbsent(topic, t -> explicit
                    ? context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, t)
                    : context.authorizeQuietly(AclOperation.DESCRIBE, ResourceType.TOPIC, t))) {
                offsets.add(offset);
            } else if (explicit) {
                offsets.add(new FetchedOffset(offset.partition(), -1, -1, "", Errors.TOPIC_AUTHORIZATION_FAILED));
            }
        }
        return new OffsetFetchResult(result.error(), offsets);
    }

    private static void addPartitions(List<OffsetKey> partitions, String topic, List<Integer> indexes) {
        for (int index : indexes) {
            partitions.add(new OffsetKey(topic, index));
        }
    }

    private static OffsetFetchResponse singleGroupResponse(OffsetFetchResult result, List<OffsetKey> requested,
                                                           short version) {
        OffsetFetchResponse response = new OffsetFetchResponse();
        if (result.error() != Errors.NONE) {
            if (version >= 2) {
                return response.setErrorCode(result.error().code());
            }
            List<FetchedOffset> failed = new ArrayList<>();
            for (OffsetKey partition : requested == null ? List.<OffsetKey>of() : requested) {
                failed.add(new FetchedOffset(partition, -1, -1, "", result.error()));
            }
            return response.setTopics(topics(failed));
        }
        return response.setTopics(topics(result.offsets()));
    }

    /** Offsets by topic in the single-group layout (v1-7). */
    private static List<OffsetFetchResponseTopic> topics(List<FetchedOffset> offsets) {
        return byTopic(offsets, name -> new OffsetFetchResponseTopic().setName(name),
                OffsetFetchResponseTopic::partitions, offset -> new OffsetFetchResponsePartition()
                        .setPartitionIndex(offset.partition().partition())
                        .setCommittedOffset(offset.offset())
                        .setCommittedLeaderEpoch(offset.leaderEpoch())
                        .setMetadata(offset.metadata())
                        .setErrorCode(offset.error().code()));
    }

    /** Offsets by topic in the per-group layout (v8+). */
    private static List<OffsetFetchResponseTopics> groupTopics(List<FetchedOffset> offsets) {
        return byTopic(offsets, name -> new OffsetFetchResponseTopics().setName(name),
                OffsetFetchResponseTopics::partitions, offset -> new OffsetFetchResponsePartitions()
                        .setPartitionIndex(offset.partition().partition())
                        .setCommittedOffset(offset.offset())
                        .setCommittedLeaderEpoch(offset.leaderEpoch())
                        .setMetadata(offset.metadata())
                        .setErrorCode(offset.error().code()));
    }

    /** One entry per topic in the order topics first appear, each with its partitions in their order. */
    private static <T, P> List<T> byTopic(List<FetchedOffset> offsets, Function<String, T> newTopic,
                                          Function<T, List<P>> partitionsOf, Function<FetchedOffset, P> newPartition) {
        Map<String, T> topics = new LinkedHashMap<>();
        for (FetchedOffset offset : offsets) {
            T topic = topics.computeIfAbsent(offset.partition().topic(), newTopic);
            partitionsOf.apply(topic).add(newPartition.apply(offset));
        }
        return new ArrayList<>(topics.values());
    }

    @Override
    public Optional<OffsetFetchResponse> errorResponse(ApiRequest<OffsetFetchRequest> request, Errors error) {
        OffsetFetchResponse response = new OffsetFetchResponse();
        if (request.version() >= 8) {
            for (OffsetFetchRequestGroup group : request.body().groups()) {
                response.groups().add(new OffsetFetchResponseGroup()
                        .setGroupId(group.groupId())
                        .setErrorCode(error.code()));
            }
        } else {
            response.setErrorCode(error.code());
        }
        return Optional.of(response);
    }
}
