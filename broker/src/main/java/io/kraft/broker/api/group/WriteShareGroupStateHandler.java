package io.kraft.broker.api.group;

import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.group.share.state.ShareStateCoordinator;
import io.kraft.broker.group.share.state.ShareStateWire;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.WriteShareGroupStateRequest;
import io.kraft.broker.protocol.message.WriteShareGroupStateResponse;
import io.kraft.storage.errors.Errors;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers WriteShareGroupState (85, KIP-932): each partition's state is written whole by the share coordinator and
 * answered once committed; CLUSTER_ACTION is required ({@code AuthorizationGates}).
 */
public final class WriteShareGroupStateHandler
        implements AsyncRequestHandler<WriteShareGroupStateRequest, WriteShareGroupStateResponse> {
    private final ShareStateCoordinator coordinator;

    public WriteShareGroupStateHandler(ShareStateCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.WRITE_SHARE_GROUP_STATE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<WriteShareGroupStateRequest> request) {
        WriteShareGroupStateRequest body = request.body();
        WriteShareGroupStateResponse response = new WriteShareGroupStateResponse();
        return SharePartitionFanOut.answer(body.topics(), WriteShareGroupStateRequest.WriteStateData::partitions,
                topic -> {
                    WriteShareGroupStateResponse.WriteStateResult out =
                            new WriteShareGroupStateResponse.WriteStateResult().setTopicId(topic.topicId());
                    response.results().add(out);
                    return out.partitions();
                },
                p -> {
                    String refusal = ShareStateWire.refusal(body.groupId(), p);
                    return refusal == null ? null : new WriteShareGroupStateResponse.PartitionResult()
                            .setPartition(p.partition()).setErrorCode(Errors.INVALID_REQUEST.code())
                            .setErrorMessage(refusal);
                },
                (topic, p) -> coordinator.write(new SharePartitionKey(body.groupId(), topic.topicId(), p.partition()),
                        p.leaderEpoch(), ShareStateWire.snapshot(p)).thenApply(error ->
                        new WriteShareGroupStateResponse.PartitionResult().setPartition(p.partition())
                                .setErrorCode(error.code())))
                .thenApply(done -> HandlerResponse.of(response));
    }

    @Override
    public Optional<WriteShareGroupStateResponse> errorResponse(ApiRequest<WriteShareGroupStateRequest> request,
                                                                Errors error) {
        WriteShareGroupStateResponse response = new WriteShareGroupStateResponse();
        for (WriteShareGroupStateRequest.WriteStateData topic : request.body().topics()) {
            WriteShareGroupStateResponse.WriteStateResult out = new WriteShareGroupStateResponse.WriteStateResult()
                    .setTopicId(topic.topicId());
            topic.partitions().forEach(p -> out.partitions().add(new WriteShareGroupStateResponse.PartitionResult()
                    .setPartition(p.partition()).setErrorCode(error.code())));
            response.results().add(out);
        }
        return Optional.of(response);
    }
}
