package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.DescribedGroup;
import io.kraft.broker.group.GroupApi.DescribedMember;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.DescribeGroupsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.storage.errors.Errors;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers DescribeGroups (v0-6): state, protocol and members of each group. Member metadata and assignments
 * are included only for stable groups, as in Kafka. An unknown group is "Dead" without error before v6 and
 * GROUP_ID_NOT_FOUND from v6 (KIP-1043).
 */
public final class DescribeGroupsHandler implements LegacyAsyncRequestHandler {
    private final GroupCoordinatorService coordinator;

    public DescribeGroupsHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_GROUPS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        short version = request.version();
        List<String> groupIds = request.body().getList("groups");
        List<CompletableFuture<DescribedGroup>> answers = new ArrayList<>();
        for (String groupId : groupIds) {
            answers.add(coordinator.describeGroup(groupId));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            Struct response = DescribeGroupsMessages.RESPONSE.newStruct();
            for (CompletableFuture<DescribedGroup> answer : answers) {
                addGroup(response, answer.join(), version);
            }
            return HandlerResponse.of(response);
        });
    }

    private static void addGroup(Struct response, DescribedGroup group, short version) {
        Struct out = response.addStruct("groups");
        Errors error = group.error();
        if (error == Errors.GROUP_ID_NOT_FOUND && version < 6) {
            error = Errors.NONE;
        }
        out.setShort(out.field("error_code"), error.code());
        if (error == Errors.GROUP_ID_NOT_FOUND) {
            out.set("error_message", "group " + group.groupId() + " does not exist");
        }
        out.set("group_id", group.groupId());
        out.set("group_state", group.state().wireName());
        out.set("protocol_type", group.protocolType());
        out.set("protocol_data", group.protocolData());
        for (DescribedMember member : group.members()) {
            Struct m = out.addStruct("members");
            m.set("member_id", member.memberId());
            m.set("group_instance_id", member.groupInstanceId());
            m.set("client_id", member.clientId());
            m.set("client_host", member.clientHost());
            m.set("member_metadata", ByteBuffer.wrap(member.metadata()));
            m.set("member_assignment", ByteBuffer.wrap(member.assignment()));
        }
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = DescribeGroupsMessages.RESPONSE.newStruct();
        for (Object groupId : request.body().getList("groups")) {
            Struct out = response.addStruct("groups");
            out.setShort(out.field("error_code"), errorCode);
            out.set("group_id", groupId);
        }
        return Optional.of(response);
    }
}
