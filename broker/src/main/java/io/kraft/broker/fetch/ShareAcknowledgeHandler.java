package io.kraft.broker.fetch;

import io.kraft.broker.group.share.ShareFetchService;
import io.kraft.broker.group.share.ShareFetchService.AckBatch;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.group.share.ShareSessions;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ShareAcknowledgeRequest;
import io.kraft.broker.protocol.message.ShareAcknowledgeResponse;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Answers ShareAcknowledge (v1, KIP-932): acknowledgements without a fetch, within the member's share session;
 * epoch -1 closes the session and releases what the member still holds here. Answered once the acknowledged state
 * is durable (or its write failed, with that error).
 */
public final class ShareAcknowledgeHandler
        implements AsyncRequestHandler<ShareAcknowledgeRequest, ShareAcknowledgeResponse> {
    private final ShareFetchService service;
    private final ShareSessions sessions;
    private final LongSupplier clock;

    public ShareAcknowledgeHandler(ShareFetchService service, ShareSessions sessions, LongSupplier clock) {
        this.service = service;
        this.sessions = sessions;
        this.clock = clock;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.SHARE_ACKNOWLEDGE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<ShareAcknowledgeRequest> request) {
        ShareAcknowledgeRequest body = request.body();
        if (body.groupId() == null || body.groupId().isEmpty() || body.memberId() == null
                || body.memberId().isEmpty()) {
            return answer(error(Errors.INVALID_REQUEST, "group id and member id are required"));
        }
        if (context.authorizationEnabled() && !context.authorize(AclOperation.READ, ResourceType.GROUP,
                body.groupId())) {
            return answer(error(Errors.GROUP_AUTHORIZATION_FAILED, null));
        }
        ShareSessions.Key key = new ShareSessions.Key(body.groupId(), body.memberId());
        int epoch = body.shareSessionEpoch();
        ShareSessions.Step step = epoch == 0 ? new ShareSessions.Step(Errors.INVALID_SHARE_SESSION_EPOCH, null)
                : epoch == -1 ? sessions.close(key)
                : sessions.next(key, epoch, Set.of(), Set.of(), clock.getAsLong());
        if (step.error() != Errors.NONE) {
            return answer(error(step.error(), null));
        }
        ShareAcknowledgeResponse response = new ShareAcknowledgeResponse();
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (ShareAcknowledgeRequest.AcknowledgeTopic topic : body.topics()) {
            ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse out =
                    new ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse().setTopicId(topic.topicId());
            String name = service.topicName(topic.topicId());
            boolean mayRead = !context.authorizationEnabled()
                    || (name != null && context.authorize(AclOperation.READ, ResourceType.TOPIC, name));
            for (ShareAcknowledgeRequest.AcknowledgePartition p : topic.partitions()) {
                List<AckBatch> batches = p.acknowledgementBatches().stream().map(b -> new AckBatch(b.firstOffset(),
                        b.lastOffset(), List.copyOf(b.acknowledgeTypes()))).toList();
                CompletableFuture<Errors> result = mayRead ? service.acknowledge(new SharePartitionKey(body.groupId(),
                        topic.topicId(), p.partitionIndex()), body.memberId(), batches)
                        : CompletableFuture.completedFuture(Errors.TOPIC_AUTHORIZATION_FAILED);
                ShareAcknowledgeResponse.PartitionData data = new ShareAcknowledgeResponse.PartitionData()
                        .setPartitionIndex(p.partitionIndex()).setCurrentLeader(
                                new ShareAcknowledgeResponse.LeaderIdAndEpoch().setLeaderId(-1).setLeaderEpoch(-1));
                out.partitions().add(data);
                writes.add(result.thenAccept(error -> data.setErrorCode(error.code())));
            }
            response.responses().add(out);
        }
        String groupId = body.groupId();
        String memberId = body.memberId();
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenApply(done -> {
            if (epoch == -1) {
                service.releaseMember(groupId, memberId);
            }
            return HandlerResponse.of(response);
        });
    }

    private static CompletableFuture<HandlerResponse> answer(ShareAcknowledgeResponse response) {
        return CompletableFuture.completedFuture(HandlerResponse.of(response));
    }

    private static ShareAcknowledgeResponse error(Errors error, String message) {
        return new ShareAcknowledgeResponse().setErrorCode(error.code()).setErrorMessage(message);
    }

    @Override
    public Optional<ShareAcknowledgeResponse> errorResponse(ApiRequest<ShareAcknowledgeRequest> request,
                                                            Errors error) {
        return Optional.of(error(error, null));
    }
}
