package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DeleteGroupsRequest;
import io.kraft.broker.protocol.message.DeleteGroupsResponse;
import io.kraft.broker.protocol.message.DeleteGroupsResponse.DeletableGroupResult;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Answers DeleteGroups (v0-2): each empty group is deleted with its offsets; NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND otherwise. */
public final class DeleteGroupsHandler implements AsyncRequestHandler<DeleteGroupsRequest, DeleteGroupsResponse> {
    private final GroupCoordinatorService coordinator;

    public DeleteGroupsHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DELETE_GROUPS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<DeleteGroupsRequest> request) {
        List<String> groupIds = request.body().groupsNames();
        List<CompletableFuture<Errors>> answers = new ArrayList<>();
        for (String groupId : groupIds) {
            answers.add(context.authorize(AclOperation.DELETE, ResourceType.GROUP, groupId)
                    ? coordinator.deleteGroup(groupId) : CompletableFuture.completedFuture(Errors.GROUP_AUTHORIZATION_FAILED));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            DeleteGroupsResponse response = new DeleteGroupsResponse();
            for (int i = 0; i < groupIds.size(); i++) {
                response.results().add(new DeletableGroupResult()
                        .setGroupId(groupIds.get(i))
                        .setErrorCode(answers.get(i).join().code()));
            }
            return HandlerResponse.of(response);
        });
    }

    @Override
    public Optional<DeleteGroupsResponse> errorResponse(ApiRequest<DeleteGroupsRequest> request, Errors error) {
        DeleteGroupsResponse response = new DeleteGroupsResponse();
        for (String groupId : request.body().groupsNames()) {
            response.results().add(new DeletableGroupResult().setGroupId(groupId).setErrorCode(error.code()));
        }
        return Optional.of(response);
    }
}
