package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.FetchedOffset;
import io.kraft.broker.group.GroupApi.OffsetFetchResult;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.OffsetKey;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.OffsetFetchMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers OffsetFetch (v1-9): committed offsets of the listed partitions, or of all when the topics are null
 * (v2+); from v8 several groups per request, each with its own error (KIP-709). v1 has no group-level error
 * field, so a group-level error is reported on every partition there.
 */
public final class OffsetFetchHandler implements LegacyAsyncRequestHandler {
    private final GroupCoordinatorService coordinator;

    public OffsetFetchHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.OFFSET_FETCH;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short version = request.version();
        boolean requireStable = version >= 7 && body.getBoolean("require_stable");
        if (version < 8) {
            List<OffsetKey> partitions = partitions(body.getStructs("topics"));
            return Requests.respond(coordinator.fetchOffsets(body.getString("group_id"), partitions, requireStable),
                    result -> singleGroupResponse(result, partitions, version));
        }
        List<Struct> groups = body.getStructs("groups");
        List<CompletableFuture<OffsetFetchResult>> answers = new ArrayList<>();
        for (Struct group : groups) {
            answers.add(coordinator.fetchOffsets(group.getString("group_id"), partitions(group.getStructs("topics")),
                    requireStable));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            Struct response = OffsetFetchMessages.RESPONSE.newStruct();
            for (int i = 0; i < groups.size(); i++) {
                Struct group = groups.get(i);
                OffsetFetchResult result = answers.get(i).join();
                Struct out = response.addStruct("groups");
                out.set("group_id", group.getString("group_id"));
                out.setShort(out.field("error_code"), result.error().code());
                if (result.error() == Errors.NONE) {
                    addTopics(out, result.offsets());
                }
            }
            return HandlerResponse.of(response);
        });
    }

    /** The requested partitions, or null (all) when the topics array is null. */
    private static List<OffsetKey> partitions(List<Struct> topics) {
        if (topics == null) {
            return null;
        }
        List<OffsetKey> partitions = new ArrayList<>();
        for (Struct topic : topics) {
            for (Object index : topic.getList("partition_indexes")) {
                partitions.add(new OffsetKey(topic.getString("name"), (Integer) index));
            }
        }
        return partitions;
    }

    private static Struct singleGroupResponse(OffsetFetchResult result, List<OffsetKey> requested, short version) {
        Struct response = OffsetFetchMessages.RESPONSE.newStruct();
        if (result.error() != Errors.NONE) {
            if (version >= 2) {
                response.setShort(response.field("error_code"), result.error().code());
                return response;
            }
            List<FetchedOffset> failed = new ArrayList<>();
            for (OffsetKey partition : requested == null ? List.<OffsetKey>of() : requested) {
                failed.add(new FetchedOffset(partition, -1, -1, "", result.error()));
            }
            addTopics(response, failed);
            return response;
        }
        addTopics(response, result.offsets());
        return response;
    }

    private static void addTopics(Struct parent, List<FetchedOffset> offsets) {
        Map<String, Struct> topics = new LinkedHashMap<>();
        for (FetchedOffset offset : offsets) {
            Struct topic = topics.computeIfAbsent(offset.partition().topic(), name -> {
                Struct created = parent.addStruct("topics");
                created.set("name", name);
                return created;
            });
            Struct out = topic.addStruct("partitions");
            out.setInt(out.field("partition_index"), offset.partition().partition());
            out.setLong(out.field("committed_offset"), offset.offset());
            out.setInt(out.field("committed_leader_epoch"), offset.leaderEpoch());
            out.set("metadata", offset.metadata());
            out.setShort(out.field("error_code"), offset.error().code());
        }
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = OffsetFetchMessages.RESPONSE.newStruct();
        if (request.version() >= 8) {
            for (Struct group : request.body().getStructs("groups")) {
                Struct out = response.addStruct("groups");
                out.set("group_id", group.getString("group_id"));
                out.setShort(out.field("error_code"), errorCode);
            }
        } else {
            response.setShort(response.field("error_code"), errorCode);
        }
        return Optional.of(response);
    }
}
