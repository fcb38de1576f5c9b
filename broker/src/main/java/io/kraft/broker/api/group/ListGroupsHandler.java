package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.ListGroupsResult;
import io.kraft.broker.group.GroupApi.ListedGroup;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.GroupState;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ListGroupsRequest;
import io.kraft.broker.protocol.message.ListGroupsResponse;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers ListGroups (v0-5) with the groups this broker coordinates; v4 filters by state names (any case),
 * v5 by group type ("classic", "consumer" for KIP-848 groups, "share" for KIP-932 groups).
 */
public final class ListGroupsHandler implements AsyncRequestHandler<ListGroupsRequest, ListGroupsResponse> {
    private final GroupCoordinatorService coordinator;
    private final Supplier<CompletableFuture<List<ListedGroup>>> otherGroups;

    public ListGroupsHandler(GroupCoordinatorService coordinator) {
        this(coordinator, () -> CompletableFuture.completedFuture(List.of()));
    }

    /** @param otherGroups groups this broker coordinates outside {@code coordinator} (share groups, KIP-932) */
    public ListGroupsHandler(GroupCoordinatorService coordinator,
                             Supplier<CompletableFuture<List<ListedGroup>>> otherGroups) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.otherGroups = Objects.requireNonNull(otherGroups, "otherGroups");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.LIST_GROUPS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<ListGroupsRequest> request) {
        ListGroupsRequest body = request.body();
        short version = request.version();
        List<String> stateNames = version >= 4 ? body.statesFilter() : List.of();
        List<String> types = version >= 5 ? body.typesFilter() : List.of();
        Set<String> wantedTypes = new java.util.HashSet<>();
        types.forEach(t -> wantedTypes.add(t.toLowerCase(Locale.ROOT)));
        Set<GroupState> states = EnumSet.noneOf(GroupState.class);
        stateNames.forEach(name -> GroupState.fromWireName(name).ifPresent(states::add));
        boolean nothingMatches = !stateNames.isEmpty() && states.isEmpty();
        // DESCRIBE on the cluster lists every group; otherwise those the principal may describe (as Kafka does).
        boolean everyGroup = !context.authorizationEnabled() || context.authorizeCluster(AclOperation.DESCRIBE);
        CompletableFuture<ListGroupsResult> all = coordinator.listGroups(states).thenCombine(otherGroups.get(),
                (result, others) -> {
                    List<ListedGroup> groups = new java.util.ArrayList<>(result.groups());
                    others.stream().filter(g -> states.isEmpty() || states.contains(g.state())).forEach(groups::add);
                    return new ListGroupsResult(result.error(), groups);
                });
        return Requests.respond(all, result -> toResponse(context, result, nothingMatches, everyGroup, wantedTypes));
    }

    private static ListGroupsResponse toResponse(RequestContext context, ListGroupsResult result,
                                                 boolean nothingMatches, boolean everyGroup,
                                                 Set<String> wantedTypes) {
        ListGroupsResponse response = new ListGroupsResponse().setErrorCode(result.error().code());
        if (nothingMatches) {
            return response;
        }
        for (ListedGroup group : result.groups()) {
            if (!wantedTypes.isEmpty() && !wantedTypes.contains(group.groupType())) {
                continue;
            }
            if (!everyGroup && !context.authorizeQuietly(AclOperation.DESCRIBE, ResourceType.GROUP, group.groupId())) {
                continue;
            }
            response.groups().add(new ListGroupsResponse.ListedGroup()
                    .setGroupId(group.groupId())
                    .setProtocolType(group.protocolType())
                    .setGroupState(group.stateName())
                    .setGroupType(group.groupType()));
        }
        return response;
    }

    @Override
    public Optional<ListGroupsResponse> errorResponse(ApiRequest<ListGroupsRequest> request, Errors error) {
        return Optional.of(new ListGroupsResponse().setErrorCode(error.code()));
    }
}
