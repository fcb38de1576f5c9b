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
import java.util.ArrayList;
import java.util.List;
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
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (WriteShareGroupStateRequest.WriteStateData topic : body.topics()) {
            WriteShareGroupStateResponse.WriteStateResult out = new WriteShareGroupStateResponse.WriteStateResult()
                    .setTopicId(topic.topicId());
            response.results().add(out);
            for (WriteShareGroupStateRequest.PartitionData p : topic.partitions()) {
                String refusal = ShareStateWire.refusal(body.groupId(), p);
                if (refusal != null) {
                    synchronized (out) {
                        out.partitions().add(new WriteShareGroupStateResponse.PartitionResult()
                                .setPartition(p.partition()).setErrorCode(Errors.INVALID_REQUEST.code())
                                .setErrorMessage(refusal));
                    }
                    continue;
                }
                SharePartitionKey key = new SharePartitionKey(body.groupId(), topic.topicId(), p.partition());
                writes.add(coordinator.write(key, p.leaderEpoch(), ShareStateWire.snapshot(p)).thenAccept(error -> {
                    synchronized (out) {
                        out.partitions().add(new WriteShareGroupStateResponse.PartitionResult()
                                .setPartition(p.partition()).setErrorCode(error.code()));
                    }
                }));
            }
        }
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
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
