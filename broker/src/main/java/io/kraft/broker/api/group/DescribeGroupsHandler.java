package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.DescribedGroup;
import io.kraft.broker.group.GroupApi.DescribedMember;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeGroupsRequest;
import io.kraft.broker.protocol.message.DescribeGroupsResponse;
import io.kraft.broker.protocol.message.DescribeGroupsResponse.DescribedGroupMember;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
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
public final class DescribeGroupsHandler implements AsyncRequestHandler<DescribeGroupsRequest, DescribeGroupsResponse> {
    private final GroupCoordinatorService coordinator;

    public DescribeGroupsHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_GROUPS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<DescribeGroupsRequest> request) {
        short version = request.version();
        boolean includeOperations = version >= 3 && request.body().includeAuthorizedOperations();
        List<String> groupIds = request.body().groups();
        List<CompletableFuture<DescribedGroup>> answers = new ArrayList<>();
        for (String groupId : groupIds) {
            // A group the principal may not describe is answered GROUP_AUTHORIZATION_FAILED, unlooked-up.
            answers.add(context.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, groupId)
                    ? coordinator.describeGroup(groupId) : CompletableFuture.completedFuture(null));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            DescribeGroupsResponse response = new DescribeGroupsResponse();
            for (int i = 0; i < answers.size(); i++) {
                DescribedGroup group = answers.get(i).join();
                if (group == null) {
                    response.groups().add(new DescribeGroupsResponse.DescribedGroup().setGroupId(groupIds.get(i))
                            .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()));
                    continue;
                }
                DescribeGroupsResponse.DescribedGroup out = toGroup(group, version);
                if (includeOperations) {
                    out.setAuthorizedOperations(context.authorizedOperations(ResourceType.GROUP, group.groupId()));
                }
                response.groups().add(out);
            }
            return HandlerResponse.of(response);
        });
    }

    private static DescribeGroupsResponse.DescribedGroup toGroup(DescribedGroup group, short version) {
        Errors error = group.error();
        if (error == Errors.GROUP_ID_NOT_FOUND && version < 6) {
            error = Errors.NONE;
        }
        DescribeGroupsResponse.DescribedGroup out = new DescribeGroupsResponse.DescribedGroup()
                .setErrorCode(error.code())
                .setGroupId(group.groupId())
                .setGroupState(group.stateName())
                .setProtocolType(group.protocolType())
                .setProtocolData(group.protocolData());
        if (error == Errors.GROUP_ID_NOT_FOUND) {
            out.setErrorMessage("group " + group.groupId() + " does not exist");
        }
        for (DescribedMember member : group.members()) {
            out.members().add(new DescribedGroupMember()
                    .setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId())
                    .setClientId(member.clientId())
                    .setClientHost(member.clientHost())
                    .setMemberMetadata(ByteBuffer.wrap(member.metadata()))
                    .setMemberAssignment(ByteBuffer.wrap(member.assignment())));
        }
        return out;
    }

    @Override
    public Optional<DescribeGroupsResponse> errorResponse(ApiRequest<DescribeGroupsRequest> request, Errors error) {
        DescribeGroupsResponse response = new DescribeGroupsResponse();
        for (String groupId : request.body().groups()) {
            response.groups().add(new DescribeGroupsResponse.DescribedGroup()
                    .setErrorCode(error.code())
                    .setGroupId(groupId));
        }
        return Optional.of(response);
    }
}
