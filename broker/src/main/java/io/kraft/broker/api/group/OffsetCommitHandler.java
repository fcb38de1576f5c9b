package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.GroupApi.PartitionCommit;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.OffsetKey;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.OffsetCommitRequest;
import io.kraft.broker.protocol.message.OffsetCommitRequest.OffsetCommitRequestPartition;
import io.kraft.broker.protocol.message.OffsetCommitRequest.OffsetCommitRequestTopic;
import io.kraft.broker.protocol.message.OffsetCommitResponse;
import io.kraft.broker.protocol.message.OffsetCommitResponse.OffsetCommitResponsePartition;
import io.kraft.broker.protocol.message.OffsetCommitResponse.OffsetCommitResponseTopic;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers OffsetCommit (v2-9) once the offsets' records are committed in {@code __consumer_offsets}. A commit
 * with generation -1 and no member id is a simple commit (assign() consumers, admin tools); v2-4 may carry an
 * explicit retention time.
 */
public final class OffsetCommitHandler implements AsyncRequestHandler<OffsetCommitRequest, OffsetCommitResponse> {
    private final GroupCoordinatorService coordinator;

    public OffsetCommitHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.OFFSET_COMMIT;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<OffsetCommitRequest> request) {
        OffsetCommitRequest body = request.body();
        short version = request.version();
        if (!context.authorize(AclOperation.READ, ResourceType.GROUP, body.groupId())) {
            return CompletableFuture.completedFuture(HandlerResponse.of(
                    errorResponse(request, Errors.GROUP_AUTHORIZATION_FAILED).orElseThrow()));
        }
        List<PartitionCommit> partitions = new ArrayList<>();
        Map<OffsetKey, Errors> denied = new HashMap<>();
        for (OffsetCommitRequestTopic topic : body.topics()) {
            String name = topic.name();
            boolean authorized = context.authorize(AclOperation.READ, ResourceType.TOPIC, name);
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                if (!authorized) {
                    denied.put(new OffsetKey(name, partition.partitionIndex()), Errors.TOPIC_AUTHORIZATION_FAILED);
                    continue;
                }
                partitions.add(new PartitionCommit(new OffsetKey(name, partition.partitionIndex()),
                        partition.committedOffset(),
                        version >= 6 ? partition.committedLeaderEpoch() : -1,
                        partition.committedMetadata()));
            }
        }
        CommitRequest commit = new CommitRequest(body.groupId(), body.generationIdOrMemberEpoch(), body.memberId(),
                version >= 7 ? body.groupInstanceId() : null,
                version <= 4 ? body.retentionTimeMs() : -1L, partitions);
        return Requests.respond(coordinator.commitOffsets(commit), errors -> {
            if (denied.isEmpty()) {
                return toResponse(body, errors);
            }
            Map<OffsetKey, Errors> all = new HashMap<>(errors);
            all.putAll(denied);
            return toResponse(body, all);
        });
    }

    private static OffsetCommitResponse toResponse(OffsetCommitRequest body, Map<OffsetKey, Errors> errors) {
        OffsetCommitResponse response = new OffsetCommitResponse();
        for (OffsetCommitRequestTopic topic : body.topics()) {
            String name = topic.name();
            OffsetCommitResponseTopic outTopic = new OffsetCommitResponseTopic().setName(name);
            response.topics().add(outTopic);
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                int index = partition.partitionIndex();
                Errors error = errors.getOrDefault(new OffsetKey(name, index), Errors.UNKNOWN_SERVER_ERROR);
                outTopic.partitions().add(new OffsetCommitResponsePartition()
                        .setPartitionIndex(index)
                        .setErrorCode(error.code()));
            }
        }
        return response;
    }

    @Override
    public Optional<OffsetCommitResponse> errorResponse(ApiRequest<OffsetCommitRequest> request, Errors error) {
        OffsetCommitResponse response = new OffsetCommitResponse();
        for (OffsetCommitRequestTopic topic : request.body().topics()) {
            OffsetCommitResponseTopic outTopic = new OffsetCommitResponseTopic().setName(topic.name());
            response.topics().add(outTopic);
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                outTopic.partitions().add(new OffsetCommitResponsePartition()
                        .setPartitionIndex(partition.partitionIndex())
                        .setErrorCode(error.code()));
            }
        }
        return Optional.of(response);
    }
}
