package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.DeleteGroupsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Answers DeleteGroups (v0-2): each empty group is deleted with its offsets; NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND otherwise. */
public final class DeleteGroupsHandler implements LegacyAsyncRequestHandler {
    private final GroupCoordinatorService coordinator;

    public DeleteGroupsHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DELETE_GROUPS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        List<String> groupIds = request.body().getList("groups_names");
        List<CompletableFuture<Errors>> answers = new ArrayList<>();
        for (String groupId : groupIds) {
            answers.add(coordinator.deleteGroup(groupId));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            Struct response = DeleteGroupsMessages.RESPONSE.newStruct();
            for (int i = 0; i < groupIds.size(); i++) {
                Struct out = response.addStruct("results");
                out.set("group_id", groupIds.get(i));
                out.setShort(out.field("error_code"), answers.get(i).join().code());
            }
            return HandlerResponse.of(response);
        });
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = DeleteGroupsMessages.RESPONSE.newStruct();
        for (Object groupId : request.body().getList("groups_names")) {
            Struct out = response.addStruct("results");
            out.set("group_id", groupId);
            out.setShort(out.field("error_code"), errorCode);
        }
        return Optional.of(response);
    }
}
