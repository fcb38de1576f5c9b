package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerGroupView;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ConsumerGroupDescribeRequest;
import io.kraft.broker.protocol.message.ConsumerGroupDescribeResponse;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Answers ConsumerGroupDescribe (v0-1, KIP-848): epochs, assignor and members of consumer-protocol groups, with each
 * member's current and target assignment. A classic group is GROUP_ID_NOT_FOUND, so the admin client falls back to
 * DescribeGroups for it.
 */
public final class ConsumerGroupDescribeHandler
        implements AsyncRequestHandler<ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse> {
    /** KIP-1099's member types: one that joined with JoinGroup (after an online upgrade), one of the consumer protocol. */
    private static final byte CLASSIC_MEMBER_TYPE = 0;
    private static final byte CONSUMER_MEMBER_TYPE = 1;
    private final GroupCoordinatorService coordinator;

    public ConsumerGroupDescribeHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.CONSUMER_GROUP_DESCRIBE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<ConsumerGroupDescribeRequest> request) {
        boolean includeOperations = request.body().includeAuthorizedOperations();
        List<String> groupIds = request.body().groupIds();
        List<CompletableFuture<ConsumerGroupView>> answers = new ArrayList<>();
        for (String groupId : groupIds) {
            answers.add(context.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, groupId)
                    ? coordinator.describeConsumerGroup(groupId)
                    : CompletableFuture.completedFuture(ConsumerGroupView.failed(groupId,
                            Errors.GROUP_AUTHORIZATION_FAILED, null)));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            ConsumerGroupDescribeResponse response = new ConsumerGroupDescribeResponse();
            for (CompletableFuture<ConsumerGroupView> answer : answers) {
                ConsumerGroupView view = answer.join();
                ConsumerGroupDescribeResponse.DescribedGroup out = toGroup(view);
                if (includeOperations && view.error() == Errors.NONE) {
                    out.setAuthorizedOperations(context.authorizedOperations(ResourceType.GROUP, view.groupId()));
                }
                response.groups().add(out);
            }
            return HandlerResponse.of(response);
        });
    }

    private static ConsumerGroupDescribeResponse.DescribedGroup toGroup(ConsumerGroupView view) {
        ConsumerGroupDescribeResponse.DescribedGroup out = new ConsumerGroupDescribeResponse.DescribedGroup()
                .setErrorCode(view.error().code())
                .setErrorMessage(view.errorMessage())
                .setGroupId(view.groupId())
                .setGroupState(view.state())
                .setGroupEpoch(view.groupEpoch())
                .setAssignmentEpoch(view.assignmentEpoch())
                .setAssignorName(view.assignorName());
        for (ConsumerGroupView.MemberView m : view.members()) {
            ConsumerGroupDescribeResponse.Member member = new ConsumerGroupDescribeResponse.Member()
                    .setMemberId(m.memberId())
                    .setInstanceId(m.instanceId())
                    .setRackId(m.rackId())
                    .setMemberEpoch(m.memberEpoch())
                    .setClientId(m.clientId())
                    .setClientHost(m.clientHost())
                    .setSubscribedTopicNames(new ArrayList<>(m.topicNames()))
                    .setSubscribedTopicRegex(m.topicRegex())
                    .setAssignment(toAssignment(m.assigned(), view.topicNames()))
                    .setTargetAssignment(toAssignment(m.target(), view.topicNames()))
                    .setMemberType(m.classic() ? CLASSIC_MEMBER_TYPE : CONSUMER_MEMBER_TYPE);
            out.members().add(member);
        }
        return out;
    }

    private static ConsumerGroupDescribeResponse.Assignment toAssignment(Assignment assignment,
                                                                         Map<UUID, String> names) {
        ConsumerGroupDescribeResponse.Assignment out = new ConsumerGroupDescribeResponse.Assignment();
        assignment.partitions().forEach((topic, ids) -> {
            String name = names.get(topic);
            if (name != null) {
                out.topicPartitions().add(new ConsumerGroupDescribeResponse.TopicPartitions().setTopicId(topic)
                        .setTopicName(name).setPartitions(new ArrayList<>(ids)));
            }
        });
        return out;
    }

    @Override
    public Optional<ConsumerGroupDescribeResponse> errorResponse(ApiRequest<ConsumerGroupDescribeRequest> request,
                                                                 Errors error) {
        ConsumerGroupDescribeResponse response = new ConsumerGroupDescribeResponse();
        for (String groupId : request.body().groupIds()) {
            response.groups().add(new ConsumerGroupDescribeResponse.DescribedGroup().setGroupId(groupId)
                    .setErrorCode(error.code()));
        }
        return Optional.of(response);
    }
}
