package io.kraft.broker.api.group;

import io.kraft.broker.group.share.ShareGroup;
import io.kraft.broker.group.share.ShareGroupCoordinator;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ShareGroupHeartbeatRequest;
import io.kraft.broker.protocol.message.ShareGroupHeartbeatResponse;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Answers ShareGroupHeartbeat (v1, KIP-932): a share consumer's membership call. */
public final class ShareGroupHeartbeatHandler
        implements AsyncRequestHandler<ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse> {
    private final ShareGroupCoordinator coordinator;

    public ShareGroupHeartbeatHandler(ShareGroupCoordinator coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.SHARE_GROUP_HEARTBEAT;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<ShareGroupHeartbeatRequest> request) {
        ShareGroupHeartbeatRequest body = request.body();
        if (context.authorizationEnabled()) {
            if (!context.authorize(AclOperation.READ, ResourceType.GROUP, body.groupId())) {
                return CompletableFuture.completedFuture(HandlerResponse.of(new ShareGroupHeartbeatResponse()
                        .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())));
            }
            if (body.subscribedTopicNames() != null) {
                List<String> denied = body.subscribedTopicNames().stream()
                        .filter(t -> !context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, t)).toList();
                if (!denied.isEmpty()) {
                    return CompletableFuture.completedFuture(HandlerResponse.of(new ShareGroupHeartbeatResponse()
                            .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                            .setErrorMessage("Topic authorization failed for topics " + denied)));
                }
            }
        }
        ShareGroup.Heartbeat heartbeat = new ShareGroup.Heartbeat(body.groupId(), body.memberId(),
                body.memberEpoch(), body.rackId(), body.subscribedTopicNames(), Requests.clientId(request),
                Requests.clientHost(context));
        int intervalMs = coordinator.config().heartbeatIntervalMs();
        return Requests.respond(coordinator.heartbeat(heartbeat), result -> response(result, intervalMs));
    }

    private static ShareGroupHeartbeatResponse response(ShareGroup.Result result, int heartbeatIntervalMs) {
        ShareGroupHeartbeatResponse response = new ShareGroupHeartbeatResponse()
                .setErrorCode(result.errorCode())
                .setErrorMessage(result.errorMessage())
                .setMemberId(result.memberId())
                .setMemberEpoch(result.memberEpoch())
                .setHeartbeatIntervalMs(heartbeatIntervalMs);
        if (result.errorCode() == Errors.NONE.code() && result.assignment() != null) {
            ShareGroupHeartbeatResponse.Assignment assignment = new ShareGroupHeartbeatResponse.Assignment();
            result.assignment().forEach((topic, ids) -> assignment.topicPartitions().add(
                    new ShareGroupHeartbeatResponse.TopicPartitions().setTopicId(topic)
                            .setPartitions(new ArrayList<>(ids))));
            response.setAssignment(assignment);
        }
        return response;
    }

    @Override
    public Optional<ShareGroupHeartbeatResponse> errorResponse(ApiRequest<ShareGroupHeartbeatRequest> request,
                                                               Errors error) {
        return Optional.of(new ShareGroupHeartbeatResponse().setErrorCode(error.code()));
    }
}
