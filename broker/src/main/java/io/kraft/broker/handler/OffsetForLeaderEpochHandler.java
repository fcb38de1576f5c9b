package io.kraft.broker.handler;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.OffsetForLeaderEpochMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.replica.ErrorCode;
import io.kraft.broker.replica.ErrorMapping;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.TopicPartition;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers OffsetForLeaderEpoch (v2-4) from the leader's leader epoch cache: for each partition the largest
 * epoch at most the one asked and the offset where it ended, which consumers use to detect log truncation
 * (KIP-320) and followers to find where to truncate (KIP-101). The current leader epoch is checked.
 */
public final class OffsetForLeaderEpochHandler implements RequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(OffsetForLeaderEpochHandler.class);

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
        Struct response = OffsetForLeaderEpochMessages.RESPONSE.newStruct();
        for (Struct topic : request.body().getStructs("topics")) {
            String name = topic.getString("topic");
            Struct topicOut = response.addStruct("topics");
            topicOut.set("topic", name);
            for (Struct partition : topic.getStructs("partitions")) {
                int index = partition.getInt("partition");
                Struct out = topicOut.addStruct("partitions");
                out.set("partition", index);
                EpochEndOffset answer = EpochEndOffset.UNDEFINED;
                ErrorCode error = ErrorCode.NONE;
                Optional<TopicPartition> tp = TopicPartitions.of(name, index);
                try {
                    if (tp.isEmpty()) {
                        error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
                    } else {
                        answer = replicaManager.partitionOrError(tp.get()).endOffsetForEpoch(
                                partition.getInt("current_leader_epoch"), partition.getInt("leader_epoch"), true);
                    }
                } catch (RuntimeException e) {
                    error = ErrorMapping.toErrorCode(e);
                    if (error == ErrorCode.UNKNOWN_SERVER_ERROR) {
                        LOG.error("OffsetForLeaderEpoch for {}-{} failed", name, index, e);
                    }
                }
                out.set("error_code", error.code());
                out.set("leader_epoch", answer.epoch());
                out.set("end_offset", answer.endOffset());
            }
        }
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = OffsetForLeaderEpochMessages.RESPONSE.newStruct();
        for (Struct topic : request.body().getStructs("topics")) {
            Struct topicOut = response.addStruct("topics");
            topicOut.set("topic", topic.getString("topic"));
            for (Struct partition : topic.getStructs("partitions")) {
                Struct out = topicOut.addStruct("partitions");
                out.set("partition", partition.getInt("partition"));
                out.set("error_code", errorCode);
            }
        }
        return Optional.of(response);
    }
}
