package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.LeaveResult;
import io.kraft.broker.group.GroupApi.LeavingMember;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.LeaveGroupMessages;
import io.kraft.broker.protocol.schema.Struct;
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
public final class LeaveGroupHandler implements LegacyAsyncRequestHandler {
    private final GroupCoordinatorService coordinator;

    public LeaveGroupHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.LEAVE_GROUP;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short version = request.version();
        List<LeavingMember> members = new ArrayList<>();
        if (version >= 3) {
            for (Struct member : body.getStructs("members")) {
                members.add(new LeavingMember(member.getString("member_id"), member.getString("group_instance_id")));
            }
        } else {
            members.add(new LeavingMember(body.getString("member_id"), null));
        }
        return Requests.respond(coordinator.leaveGroup(body.getString("group_id"), members),
                result -> toResponse(result, members, version));
    }

    private static Struct toResponse(LeaveResult result, List<LeavingMember> members, short version) {
        Struct response = LeaveGroupMessages.RESPONSE.newStruct();
        if (version < 3) {
            Errors error = result.error() != Errors.NONE || result.memberErrors().isEmpty()
                    ? result.error() : result.memberErrors().get(0);
            response.setShort(response.field("error_code"), error.code());
            return response;
        }
        response.setShort(response.field("error_code"), result.error().code());
        if (result.error() == Errors.NONE) {
            for (int i = 0; i < members.size(); i++) {
                Struct out = response.addStruct("members");
                out.set("member_id", members.get(i).memberId() == null ? "" : members.get(i).memberId());
                out.set("group_instance_id", members.get(i).groupInstanceId());
                out.setShort(out.field("error_code"), result.memberErrors().get(i).code());
            }
        }
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = LeaveGroupMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), errorCode);
        return Optional.of(response);
    }
}
