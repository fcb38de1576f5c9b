package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.LeaveResult;
import io.kraft.broker.group.GroupApi.LeavingMember;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.LeaveGroupRequest;
import io.kraft.broker.protocol.message.LeaveGroupResponse;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers LeaveGroup (v0-5): one member before v3, a batch of members (by member id and/or static instance id,
 * KIP-345) from v3, each with its own error.
 */
public final class LeaveGroupHandler implements AsyncRequestHandler<LeaveGroupRequest, LeaveGroupResponse> {
    private final GroupCoordinatorService coordinator;

    public LeaveGroupHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.LEAVE_GROUP;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<LeaveGroupRequest> request) {
        LeaveGroupRequest body = request.body();
        short version = request.version();
        List<LeavingMember> members = new ArrayList<>();
        if (version >= 3) {
            for (LeaveGroupRequest.MemberIdentity member : body.members()) {
                members.add(new LeavingMember(member.memberId(), member.groupInstanceId()));
            }
        } else {
            members.add(new LeavingMember(body.memberId(), null));
        }
        return Requests.respond(coordinator.leaveGroup(body.groupId(), members),
                result -> toResponse(result, members, version));
    }

    private static LeaveGroupResponse toResponse(LeaveResult result, List<LeavingMember> members, short version) {
        LeaveGroupResponse response = new LeaveGroupResponse();
        if (version < 3) {
            Errors error = result.error() != Errors.NONE || result.memberErrors().isEmpty()
                    ? result.error() : result.memberErrors().get(0);
            return response.setErrorCode(error.code());
        }
        response.setErrorCode(result.error().code());
        if (result.error() == Errors.NONE) {
            for (int i = 0; i < members.size(); i++) {
                LeavingMember member = members.get(i);
                response.members().add(new LeaveGroupResponse.MemberResponse()
                        .setMemberId(member.memberId() == null ? "" : member.memberId())
                        .setGroupInstanceId(member.groupInstanceId())
                        .setErrorCode(result.memberErrors().get(i).code()));
            }
        }
        return response;
    }

    @Override
    public Optional<LeaveGroupResponse> errorResponse(ApiRequest<LeaveGroupRequest> request, Errors error) {
        return Optional.of(new LeaveGroupResponse().setErrorCode(error.code()));
    }
}
