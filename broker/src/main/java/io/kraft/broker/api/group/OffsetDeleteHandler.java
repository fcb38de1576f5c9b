package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.OffsetDeleteResult;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.OffsetKey;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.OffsetDeleteMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers OffsetDelete (v0, KIP-496): deletes a group's committed offsets, except for topics its live
 * consumers still subscribe to (GROUP_SUBSCRIBED_TO_TOPIC).
 */
public final class OffsetDeleteHandler implements LegacyAsyncRequestHandler {
    private final GroupCoordinatorService coordinator;

    public OffsetDeleteHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.OFFSET_DELETE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        List<OffsetKey> partitions = new ArrayList<>();
        for (Struct topic : body.getStructs("topics")) {
            for (Struct partition : topic.getStructs("partitions")) {
                partitions.add(new OffsetKey(topic.getString("name"), partition.getInt("partition_index")));
            }
        }
        return Requests.respond(coordinator.deleteOffsets(body.getString("group_id"), partitions),
                result -> toResponse(body, result));
    }

    private static Struct toResponse(Struct body, OffsetDeleteResult result) {
        Struct response = OffsetDeleteMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), result.error().code());
        if (result.error() != Errors.NONE) {
            return response;
        }
        for (Struct topic : body.getStructs("topics")) {
            Struct outTopic = response.addStruct("topics");
            String name = topic.getString("name");
            outTopic.set("name", name);
            for (Struct partition : topic.getStructs("partitions")) {
                int index = partition.getInt("partition_index");
                Struct out = outTopic.addStruct("partitions");
                out.setInt(out.field("partition_index"), index);
                out.setShort(out.field("error_code"), result.partitionErrors()
                        .getOrDefault(new OffsetKey(name, index), Errors.NONE).code());
            }
        }
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = OffsetDeleteMessages.RESPONSE.newStruct();
        response.setShort(response.field("error_code"), errorCode);
        return Optional.of(response);
    }
}
