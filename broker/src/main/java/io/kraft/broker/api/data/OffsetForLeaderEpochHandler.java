package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.OffsetForLeaderEpochMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.storage.log.EpochEndOffset;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers OffsetForLeaderEpoch (v2-4) from the leader's leader epoch cache: for each partition the largest
 * epoch at most the one asked and the offset where it ended, which consumers use to detect log truncation
 * (KIP-320) and followers to find where to truncate (KIP-101). The current leader epoch is checked.
 */
public final class OffsetForLeaderEpochHandler implements LegacyRequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(OffsetForLeaderEpochHandler.class);
    private static final PartitionRequests PARTITIONS = new PartitionRequests("OffsetForLeaderEpoch", "topic",
            "partition");

    private final ReplicaManager replicaManager;

    public OffsetForLeaderEpochHandler(ReplicaManager replicaManager) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.OFFSET_FOR_LEADER_EPOCH;
    }

    @Override
    public Struct handle(RequestContext context, ParsedRequest request) {
        return PARTITIONS.respond(request.body(), OffsetForLeaderEpochMessages.RESPONSE.newStruct(),
                (tp, partition, out) -> {
                    EpochEndOffset answer = replicaManager.partitionOrError(tp).endOffsetForEpoch(
                            partition.getInt("current_leader_epoch"), partition.getInt("leader_epoch"), true);
                    out.set("leader_epoch", answer.epoch());
                    out.set("end_offset", answer.endOffset());
                }, OffsetForLeaderEpochHandler::failed, LOG);
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        return PARTITIONS.errorResponse(request.body(), OffsetForLeaderEpochMessages.RESPONSE.newStruct(), errorCode,
                OffsetForLeaderEpochHandler::failed);
    }

    private static void failed(Struct out, short errorCode) {
        out.set("error_code", errorCode);
        out.set("leader_epoch", EpochEndOffset.UNDEFINED.epoch());
        out.set("end_offset", EpochEndOffset.UNDEFINED.endOffset());
    }
}
