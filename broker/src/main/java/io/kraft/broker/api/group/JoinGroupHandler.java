package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.JoinRequest;
import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.JoinedMember;
import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.JoinGroupMessages;
import io.kraft.broker.protocol.schema.Struct;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers JoinGroup (v0-9). The answer is held until the group's join phase completes; from v4 a new dynamic
 * member first gets its id with MEMBER_ID_REQUIRED (KIP-394); v5 carries the static group.instance.id (KIP-345);
 * v9 may tell a rejoining static leader to skip the assignment (KIP-814).
 */
public final class JoinGroupHandler implements LegacyAsyncRequestHandler {
    private final GroupCoordinatorService coordinator;

    public JoinGroupHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.JOIN_GROUP;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short version = request.version();
        List<Protocol> protocols = new ArrayList<>();
        for (Struct protocol : body.getStructs("protocols")) {
            protocols.add(new Protocol(protocol.getString("name"), Requests.bytes(protocol.getBytes("metadata"))));
        }
        JoinRequest join = new JoinRequest(body.getString("group_id"), body.getString("member_id"),
                version >= 5 ? body.getString("group_instance_id") : null, Requests.clientId(request),
                Requests.clientHost(context), body.getInt("session_timeout_ms"),
                version >= 1 ? body.getInt("rebalance_timeout_ms") : -1, body.getString("protocol_type"),
                protocols, version >= 4, version >= 9);
        return Requests.respond(coordinator.joinGroup(join), result -> toResponse(result, version));
    }

    private static Struct toResponse(JoinResult result, short version) {
        Struct response = JoinGroupMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), result.error().code());
        response.setInt(response.field("generation_id"), result.generationId());
        response.set("protocol_type", result.protocolType());
        // Before v7 the protocol name is not nullable: an answer without one carries "".
        response.set("protocol_name", result.protocolName() == null && version < 7 ? "" : result.protocolName());
        response.set("leader", result.leaderId() == null ? "" : result.leaderId());
        response.setBoolean(response.field("skip_assignment"), result.skipAssignment());
        response.set("member_id", result.memberId() == null ? "" : result.memberId());
        for (JoinedMember member : result.members()) {
            Struct out = response.addStruct("members");
            out.set("member_id", member.memberId());
            out.set("group_instance_id", member.groupInstanceId());
            out.set("metadata", ByteBuffer.wrap(member.metadata()));
        }
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = JoinGroupMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), errorCode);
        response.set("member_id", request.body().getString("member_id"));
        return Optional.of(response);
    }
}
