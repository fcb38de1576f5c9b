package io.kraft.broker.api.group;

import io.kraft.broker.group.share.ShareGroup;
import io.kraft.broker.group.share.ShareGroupCoordinator;
import io.kraft.broker.group.share.ShareGroupCoordinator.GroupView;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ShareGroupDescribeRequest;
import io.kraft.broker.protocol.message.ShareGroupDescribeResponse;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Answers ShareGroupDescribe (v1, KIP-932): share groups' members and assignments, for admin tools. */
public final class ShareGroupDescribeHandler
        implements AsyncRequestHandler<ShareGroupDescribeRequest, ShareGroupDescribeResponse> {
    private final ShareGroupCoordinator coordinator;
    private final Supplier<MetadataImage> images;

    public ShareGroupDescribeHandler(ShareGroupCoordinator coordinator, Supplier<MetadataImage> images) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.images = images;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.SHARE_GROUP_DESCRIBE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<ShareGroupDescribeRequest> request) {
        List<String> ids = request.body().groupIds();
        return Requests.respond(coordinator.describe(ids), views -> {
            ShareGroupDescribeResponse response = new ShareGroupDescribeResponse();
            MetadataImage image = images.get();
            for (GroupView view : views) {
                response.groups().add(describe(context, view, image));
            }
            return response;
        });
    }

    private ShareGroupDescribeResponse.DescribedGroup describe(RequestContext context, GroupView view,
                                                               MetadataImage image) {
        ShareGroupDescribeResponse.DescribedGroup out = new ShareGroupDescribeResponse.DescribedGroup()
                .setGroupId(view.groupId());
        if (context.authorizationEnabled()
                && !context.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, view.groupId())) {
            return out.setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code());
        }
        if (!coordinator.coordinates(view.groupId())) {
            return out.setErrorCode(Errors.NOT_COORDINATOR.code());
        }
        if (view.members() == null) {
            return out.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code())
                    .setErrorMessage("Group " + view.groupId() + " not found.");
        }
        out.setGroupState(view.state()).setGroupEpoch(view.groupEpoch()).setAssignmentEpoch(view.groupEpoch())
                .setAssignorName(ShareGroup.ASSIGNOR_NAME);
        for (ShareGroup.Member member : view.members()) {
            ShareGroupDescribeResponse.Assignment assignment = new ShareGroupDescribeResponse.Assignment();
            member.assignment().forEach((topicId, partitions) -> {
                TopicImage topic = image.topics().topic(topicId);
                assignment.topicPartitions().add(new ShareGroupDescribeResponse.TopicPartitions().setTopicId(topicId)
                        .setTopicName(topic == null ? "" : topic.name()).setPartitions(new ArrayList<>(partitions)));
            });
            out.members().add(new ShareGroupDescribeResponse.Member().setMemberId(member.memberId())
                    .setRackId(member.rackId()).setMemberEpoch(member.memberEpoch())
                    .setClientId(member.clientId() == null ? "" : member.clientId())
                    .setClientHost(member.clientHost() == null ? "" : member.clientHost())
                    .setSubscribedTopicNames(new ArrayList<>(member.subscribedTopicNames()))
                    .setAssignment(assignment));
        }
        return out;
    }

    @Override
    public Optional<ShareGroupDescribeResponse> errorResponse(ApiRequest<ShareGroupDescribeRequest> request,
                                                              Errors error) {
        ShareGroupDescribeResponse response = new ShareGroupDescribeResponse();
        request.body().groupIds().forEach(id -> response.groups().add(
                new ShareGroupDescribeResponse.DescribedGroup().setGroupId(id).setErrorCode(error.code())));
        return Optional.of(response);
    }
}
