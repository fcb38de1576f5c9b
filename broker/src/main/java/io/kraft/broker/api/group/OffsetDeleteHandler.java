package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.OffsetDeleteResult;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.OffsetKey;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.OffsetDeleteRequest;
import io.kraft.broker.protocol.message.OffsetDeleteRequest.OffsetDeleteRequestPartition;
import io.kraft.broker.protocol.message.OffsetDeleteRequest.OffsetDeleteRequestTopic;
import io.kraft.broker.protocol.message.OffsetDeleteResponse;
import io.kraft.broker.protocol.message.OffsetDeleteResponse.OffsetDeleteResponsePartition;
import io.kraft.broker.protocol.message.OffsetDeleteResponse.OffsetDeleteResponseTopic;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers OffsetDelete (v0, KIP-496): deletes a group's committed offsets, except for topics its live
 * consumers still subscribe to (GROUP_SUBSCRIBED_TO_TOPIC).
 */
public final class OffsetDeleteHandler implements AsyncRequestHandler<OffsetDeleteRequest, OffsetDeleteResponse> {
    private final GroupCoordinatorService coordinator;

    public OffsetDeleteHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.OFFSET_DELETE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<OffsetDeleteRequest> request) {
        OffsetDeleteRequest body = request.body();
        if (!context.authorize(AclOperation.DELETE, ResourceType.GROUP, body.groupId())) {
            return CompletableFuture.completedFuture(HandlerResponse.of(new OffsetDeleteResponse()
                    .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())));
        }
        List<OffsetKey> partitions = new ArrayList<>();
        for (OffsetDeleteRequestTopic topic : body.topics()) {
            for (OffsetDeleteRequestPartition partition : topic.partitions()) {
                partitions.add(new OffsetKey(topic.name(), partition.partitionIndex()));
            }
        }
        return Requests.respond(coordinator.deleteOffsets(body.groupId(), partitions),
                result -> toResponse(body, result));
    }

    private static OffsetDeleteResponse toResponse(OffsetDeleteRequest body, OffsetDeleteResult result) {
        OffsetDeleteResponse response = new OffsetDeleteResponse().setErrorCode(result.error().code());
        if (result.error() != Errors.NONE) {
            return response;
        }
        for (OffsetDeleteRequestTopic topic : body.topics()) {
            String name = topic.name();
            OffsetDeleteResponseTopic outTopic = new OffsetDeleteResponseTopic().setName(name);
            response.topics().add(outTopic);
            for (OffsetDeleteRequestPartition partition : topic.partitions()) {
                int index = partition.partitionIndex();
                outTopic.partitions().add(new OffsetDeleteResponsePartition()
                        .setPartitionIndex(index)
                        .setErrorCode(result.partitionErrors().getOrDefault(new OffsetKey(name, index), Errors.NONE)
                                .code()));
            }
        }
        return response;
    }

    @Override
    public Optional<OffsetDeleteResponse> errorResponse(ApiRequest<OffsetDeleteRequest> request, Errors error) {
        return Optional.of(new OffsetDeleteResponse().setErrorCode(error.code()));
    }
}
