package io.kraft.broker.api.group;

import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.group.share.state.ShareStateCoordinator;
import io.kraft.broker.group.share.state.ShareStateWire;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ReadShareGroupStateRequest;
import io.kraft.broker.protocol.message.ReadShareGroupStateResponse;
import io.kraft.storage.errors.Errors;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers ReadShareGroupState (84, KIP-932), which a data partition's leader sends to the share coordinator of its
 * share partitions' state; CLUSTER_ACTION is required ({@code AuthorizationGates}), as for other inter-broker APIs.
 */
public final class ReadShareGroupStateHandler
        implements AsyncRequestHandler<ReadShareGroupStateRequest, ReadShareGroupStateResponse> {
    private final ShareStateCoordinator coordinator;

    public ReadShareGroupStateHandler(ShareStateCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.READ_SHARE_GROUP_STATE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<ReadShareGroupStateRequest> request) {
        ReadShareGroupStateRequest body = request.body();
        ReadShareGroupStateResponse response = new ReadShareGroupStateResponse();
        return SharePartitionFanOut.answer(body.topics(), ReadShareGroupStateRequest.ReadStateData::partitions,
                topic -> {
                    ReadShareGroupStateResponse.ReadStateResult out = new ReadShareGroupStateResponse.ReadStateResult()
                            .setTopicId(topic.topicId());
                    response.results().add(out);
                    return out.partitions();
                },
                p -> body.groupId() == null || body.groupId().isEmpty() || p.partition() < 0
                        ? new ReadShareGroupStateResponse.PartitionResult().setPartition(p.partition())
                                .setErrorCode(Errors.INVALID_REQUEST.code())
                                .setErrorMessage("a group id and a partition are required").setStartOffset(-1)
                        : null,
                (topic, p) -> coordinator.read(new SharePartitionKey(body.groupId(), topic.topicId(), p.partition()),
                        p.leaderEpoch()).thenApply(result -> ShareStateWire.readResult(p.partition(), result)))
                .thenApply(done -> HandlerResponse.of(response));
    }

    @Override
    public Optional<ReadShareGroupStateResponse> errorResponse(ApiRequest<ReadShareGroupStateRequest> request,
                                                               Errors error) {
        ReadShareGroupStateResponse response = new ReadShareGroupStateResponse();
        for (ReadShareGroupStateRequest.ReadStateData topic : request.body().topics()) {
            ReadShareGroupStateResponse.ReadStateResult out = new ReadShareGroupStateResponse.ReadStateResult()
                    .setTopicId(topic.topicId());
            topic.partitions().forEach(p -> out.partitions().add(new ReadShareGroupStateResponse.PartitionResult()
                    .setPartition(p.partition()).setErrorCode(error.code()).setStartOffset(-1)));
            response.results().add(out);
        }
        return Optional.of(response);
    }
}
