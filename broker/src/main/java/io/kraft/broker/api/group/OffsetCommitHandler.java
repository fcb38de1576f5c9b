package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.GroupApi.PartitionCommit;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.OffsetKey;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.OffsetCommitMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers OffsetCommit (v2-9) once the offsets' records are committed in {@code __consumer_offsets}. A commit
 * with generation -1 and no member id is a simple commit (assign() consumers, admin tools); v2-4 may carry an
 * explicit retention time.
 */
public final class OffsetCommitHandler implements LegacyAsyncRequestHandler {
    private final GroupCoordinatorService coordinator;

    public OffsetCommitHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.OFFSET_COMMIT;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short version = request.version();
        List<PartitionCommit> partitions = new ArrayList<>();
        for (Struct topic : body.getStructs("topics")) {
            String name = topic.getString("name");
            for (Struct partition : topic.getStructs("partitions")) {
                partitions.add(new PartitionCommit(new OffsetKey(name, partition.getInt("partition_index")),
                        partition.getLong("committed_offset"),
                        version >= 6 ? partition.getInt("committed_leader_epoch") : -1,
                        partition.getString("committed_metadata")));
            }
        }
        CommitRequest commit = new CommitRequest(body.getString("group_id"),
                body.getInt("generation_id_or_member_epoch"), body.getString("member_id"),
                version >= 7 ? body.getString("group_instance_id") : null,
                version <= 4 ? body.getLong("retention_time_ms") : -1L, partitions);
        return Requests.respond(coordinator.commitOffsets(commit), errors -> toResponse(body, errors));
    }

    private static Struct toResponse(Struct body, Map<OffsetKey, Errors> errors) {
        Struct response = OffsetCommitMessages.RESPONSE.newStruct();
        for (Struct topic : body.getStructs("topics")) {
            String name = topic.getString("name");
            Struct outTopic = response.addStruct("topics");
            outTopic.set("name", name);
            for (Struct partition : topic.getStructs("partitions")) {
                int index = partition.getInt("partition_index");
                Struct out = outTopic.addStruct("partitions");
                out.setInt(out.field("partition_index"), index);
                Errors error = errors.getOrDefault(new OffsetKey(name, index), Errors.UNKNOWN_SERVER_ERROR);
                out.setShort(out.field("error_code"), error.code());
            }
        }
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = OffsetCommitMessages.RESPONSE.newStruct();
        for (Struct topic : request.body().getStructs("topics")) {
            Struct outTopic = response.addStruct("topics");
            outTopic.set("name", topic.getString("name"));
            for (Struct partition : topic.getStructs("partitions")) {
                Struct out = outTopic.addStruct("partitions");
                out.setInt(out.field("partition_index"), partition.getInt("partition_index"));
                out.setShort(out.field("error_code"), errorCode);
            }
        }
        return Optional.of(response);
    }
}
