package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.ListGroupsResult;
import io.kraft.broker.group.GroupApi.ListedGroup;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.GroupState;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.ListGroupsMessages;
import io.kraft.broker.protocol.schema.Struct;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Answers ListGroups (v0-5) with the groups this broker coordinates; v4 filters by state names (any case),
 * v5 by group type, where every group here is of the "classic" type.
 */
public final class ListGroupsHandler implements LegacyAsyncRequestHandler {
    static final String CLASSIC_GROUP_TYPE = "classic";

    private final GroupCoordinatorService coordinator;

    public ListGroupsHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.LIST_GROUPS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short version = request.version();
        List<String> stateNames = version >= 4 ? body.getList("states_filter") : List.of();
        List<String> types = version >= 5 ? body.getList("types_filter") : List.of();
        boolean classicWanted = types.isEmpty()
                || types.stream().anyMatch(t -> t.toLowerCase(Locale.ROOT).equals(CLASSIC_GROUP_TYPE));
        Set<GroupState> states = EnumSet.noneOf(GroupState.class);
        stateNames.forEach(name -> GroupState.fromWireName(name).ifPresent(states::add));
        boolean nothingMatches = !classicWanted || (!stateNames.isEmpty() && states.isEmpty());
        return Requests.respond(coordinator.listGroups(states), result -> toResponse(result, nothingMatches));
    }

    private static Struct toResponse(ListGroupsResult result, boolean nothingMatches) {
        Struct response = ListGroupsMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), result.error().code());
        if (nothingMatches) {
            return response;
        }
        for (ListedGroup group : result.groups()) {
            Struct out = response.addStruct("groups");
            out.set("group_id", group.groupId());
            out.set("protocol_type", group.protocolType());
            out.set("group_state", group.state().wireName());
            out.set("group_type", CLASSIC_GROUP_TYPE);
        }
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = ListGroupsMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), errorCode);
        return Optional.of(response);
    }
}
