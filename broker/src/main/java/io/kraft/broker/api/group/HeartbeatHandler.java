package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.HeartbeatRequest;
import io.kraft.broker.protocol.message.HeartbeatResponse;
import io.kraft.storage.errors.Errors;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Answers Heartbeat (v0-4): keeps a member's session alive and tells it when the group rebalances. */
public final class HeartbeatHandler implements AsyncRequestHandler<HeartbeatRequest, HeartbeatResponse> {
    private final GroupCoordinatorService coordinator;

    public HeartbeatHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.HEARTBEAT;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<HeartbeatRequest> request) {
        HeartbeatRequest body = request.body();
        GroupApi.HeartbeatRequest heartbeat = new GroupApi.HeartbeatRequest(body.groupId(), body.generationId(),
                body.memberId(), request.version() >= 3 ? body.groupInstanceId() : null);
        return Requests.respond(coordinator.heartbeat(heartbeat), HeartbeatHandler::response);
    }

    private static HeartbeatResponse response(Errors error) {
        return new HeartbeatResponse().setErrorCode(error.code());
    }

    @Override
    public Optional<HeartbeatResponse> errorResponse(ApiRequest<HeartbeatRequest> request, Errors error) {
        return Optional.of(response(error));
    }
}
