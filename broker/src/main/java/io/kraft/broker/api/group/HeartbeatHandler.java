package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.HeartbeatRequest;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.HeartbeatMessages;
import io.kraft.broker.protocol.schema.Struct;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Answers Heartbeat (v0-4): keeps a member's session alive and tells it when the group rebalances. */
public final class HeartbeatHandler implements LegacyAsyncRequestHandler {
    private final GroupCoordinatorService coordinator;

    public HeartbeatHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.HEARTBEAT;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        HeartbeatRequest heartbeat = new HeartbeatRequest(body.getString("group_id"), body.getInt("generation_id"),
                body.getString("member_id"), request.version() >= 3 ? body.getString("group_instance_id") : null);
        return Requests.respond(coordinator.heartbeat(heartbeat), error -> response(error.code()));
    }

    private static Struct response(short errorCode) {
        Struct response = HeartbeatMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), errorCode);
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        return Optional.of(response(errorCode));
    }
}
