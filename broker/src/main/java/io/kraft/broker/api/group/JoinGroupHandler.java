package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.JoinRequest;
import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.JoinedMember;
import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.JoinGroupRequest;
import io.kraft.broker.protocol.message.JoinGroupResponse;
import io.kraft.storage.errors.Errors;
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
public final class JoinGroupHandler implements AsyncRequestHandler<JoinGroupRequest, JoinGroupResponse> {
    private final GroupCoordinatorService coordinator;

    public JoinGroupHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.JOIN_GROUP;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<JoinGroupRequest> request) {
        JoinGroupRequest body = request.body();
        short version = request.version();
        List<Protocol> protocols = new ArrayList<>(body.protocols().size());
        for (JoinGroupRequest.JoinGroupRequestProtocol protocol : body.protocols()) {
            protocols.add(new Protocol(protocol.name(), Requests.bytes(protocol.metadata())));
        }
        JoinRequest join = new JoinRequest(body.groupId(), body.memberId(),
                version >= 5 ? body.groupInstanceId() : null, Requests.clientId(request),
                Requests.clientHost(context), body.sessionTimeoutMs(),
                version >= 1 ? body.rebalanceTimeoutMs() : -1, body.protocolType(),
                protocols, version >= 4, version >= 9);
        return Requests.respond(coordinator.joinGroup(join), result -> toResponse(result, version));
    }

    private static JoinGroupResponse toResponse(JoinResult result, short version) {
        JoinGroupResponse response = new JoinGroupResponse()
                .setErrorCode(result.error().code())
                .setGenerationId(result.generationId())
                .setProtocolType(result.protocolType())
                // Before v7 the protocol name is not nullable: an answer without one carries "".
                .setProtocolName(result.protocolName() == null && version < 7 ? "" : result.protocolName())
                .setLeader(result.leaderId() == null ? "" : result.leaderId())
                .setSkipAssignment(result.skipAssignment())
                .setMemberId(result.memberId() == null ? "" : result.memberId());
        for (JoinedMember member : result.members()) {
            response.members().add(new JoinGroupResponse.JoinGroupResponseMember()
                    .setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId())
                    .setMetadata(ByteBuffer.wrap(member.metadata())));
        }
        return response;
    }

    @Override
    public Optional<JoinGroupResponse> errorResponse(ApiRequest<JoinGroupRequest> request, Errors error) {
        return Optional.of(new JoinGroupResponse().setErrorCode(error.code()).setMemberId(request.body().memberId()));
    }
}
