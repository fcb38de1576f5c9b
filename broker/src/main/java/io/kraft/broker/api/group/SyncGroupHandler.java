package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.SyncRequest;
import io.kraft.broker.group.GroupApi.SyncResult;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.SyncGroupMessages;
import io.kraft.broker.protocol.schema.Struct;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers SyncGroup (v0-5): the leader hands in the assignment; every member's answer is held until it is
 * stored, then carries that member's part. v5 checks the protocol type and name against the group's.
 */
public final class SyncGroupHandler implements LegacyAsyncRequestHandler {
    private final GroupCoordinatorService coordinator;

    public SyncGroupHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.SYNC_GROUP;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short version = request.version();
        Map<String, byte[]> assignments = new HashMap<>();
        for (Struct assignment : body.getStructs("assignments")) {
            assignments.put(assignment.getString("member_id"), Requests.bytes(assignment.getBytes("assignment")));
        }
        SyncRequest sync = new SyncRequest(body.getString("group_id"), body.getInt("generation_id"),
                body.getString("member_id"), version >= 3 ? body.getString("group_instance_id") : null,
                version >= 5 ? body.getString("protocol_type") : null,
                version >= 5 ? body.getString("protocol_name") : null, assignments);
        return Requests.respond(coordinator.syncGroup(sync), SyncGroupHandler::toResponse);
    }

    private static Struct toResponse(SyncResult result) {
        Struct response = SyncGroupMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), result.error().code());
        response.set("protocol_type", result.protocolType());
        response.set("protocol_name", result.protocolName());
        response.set("assignment", ByteBuffer.wrap(result.assignment()));
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = SyncGroupMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), errorCode);
        return Optional.of(response);
    }
}
