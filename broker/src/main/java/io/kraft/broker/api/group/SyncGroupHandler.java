package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.SyncRequest;
import io.kraft.broker.group.GroupApi.SyncResult;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.SyncGroupRequest;
import io.kraft.broker.protocol.message.SyncGroupResponse;
import io.kraft.storage.errors.Errors;
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
public final class SyncGroupHandler implements AsyncRequestHandler<SyncGroupRequest, SyncGroupResponse> {
    private final GroupCoordinatorService coordinator;

    public SyncGroupHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.SYNC_GROUP;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<SyncGroupRequest> request) {
        SyncGroupRequest body = request.body();
        short version = request.version();
        Map<String, byte[]> assignments = new HashMap<>();
        for (SyncGroupRequest.SyncGroupRequestAssignment assignment : body.assignments()) {
            assignments.put(assignment.memberId(), Requests.bytes(assignment.assignment()));
        }
        SyncRequest sync = new SyncRequest(body.groupId(), body.generationId(), body.memberId(),
                version >= 3 ? body.groupInstanceId() : null,
                version >= 5 ? body.protocolType() : null,
                version >= 5 ? body.protocolName() : null, assignments);
        return Requests.respond(coordinator.syncGroup(sync), SyncGroupHandler::toResponse);
    }

    private static SyncGroupResponse toResponse(SyncResult result) {
        return new SyncGroupResponse()
                .setErrorCode(result.error().code())
                .setProtocolType(result.protocolType())
                .setProtocolName(result.protocolName())
                .setAssignment(ByteBuffer.wrap(result.assignment()));
    }

    @Override
    public Optional<SyncGroupResponse> errorResponse(ApiRequest<SyncGroupRequest> request, Errors error) {
        return Optional.of(new SyncGroupResponse().setErrorCode(error.code()));
    }
}
