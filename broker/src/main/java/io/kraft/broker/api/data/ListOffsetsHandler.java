package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.ListOffsetsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.fetch.FetchIsolation;
import io.kraft.broker.fetch.FetchParams;
import io.kraft.broker.replica.ReplicaException;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.broker.replica.TimestampAndOffset;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers ListOffsets (v1-10) from the leader's log: earliest (-2) and earliest-local (-4, = earliest: no tiered
 * storage), latest (-1, the high watermark; also for read_committed, since the last stable offset equals it),
 * max timestamp (-3), latest-tiered (-5, none), or the first record at or after a timestamp, each with the
 * leader epoch of the offset found. A partition named twice gets INVALID_REQUEST.
 */
public final class ListOffsetsHandler implements LegacyRequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ListOffsetsHandler.class);
    private static final PartitionRequests PARTITIONS = new PartitionRequests("ListOffsets", "name",
            "partition_index");

    private final ReplicaManager replicaManager;

    public ListOffsetsHandler(ReplicaManager replicaManager) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.LIST_OFFSETS;
    }

    @Override
    public Struct handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        int replicaId = body.getInt("replica_id");
        FetchIsolation isolation = FetchIsolation.of(replicaId);
        boolean fetchOnlyFromLeader = replicaId != FetchParams.DEBUGGING_REPLICA_ID;
        Set<TopicPartition> seen = new HashSet<>();
        return PARTITIONS.respond(body, ListOffsetsMessages.RESPONSE.newStruct(), (tp, partition, out) -> {
            if (!seen.add(tp)) {
                throw new ReplicaException(Errors.INVALID_REQUEST, tp + " is named twice");
            }
            TimestampAndOffset answer = replicaManager.partitionOrError(tp).offsetForTimestamp(
                    partition.getLong("timestamp"), partition.getInt("current_leader_epoch"), isolation,
                    fetchOnlyFromLeader);
            out.set("timestamp", answer.timestampMs());
            out.set("offset", answer.offset());
            out.set("leader_epoch", answer.leaderEpoch());
        }, ListOffsetsHandler::failed, LOG);
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        return PARTITIONS.errorResponse(request.body(), ListOffsetsMessages.RESPONSE.newStruct(), errorCode,
                ListOffsetsHandler::failed);
    }

    private static void failed(Struct out, short errorCode) {
        out.set("error_code", errorCode);
        out.set("timestamp", TimestampAndOffset.NOT_FOUND.timestampMs());
        out.set("offset", TimestampAndOffset.NOT_FOUND.offset());
        out.set("leader_epoch", TimestampAndOffset.NOT_FOUND.leaderEpoch());
    }
}
