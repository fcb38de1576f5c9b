package io.kraft.broker.handler;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.ListOffsetsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.replica.ErrorCode;
import io.kraft.broker.replica.ErrorMapping;
import io.kraft.broker.replica.FetchIsolation;
import io.kraft.broker.replica.FetchParams;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.broker.replica.TimestampAndOffset;
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
public final class ListOffsetsHandler implements RequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ListOffsetsHandler.class);

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
        Struct response = ListOffsetsMessages.RESPONSE.newStruct();
        Set<TopicPartition> seen = new HashSet<>();
        for (Struct topic : body.getStructs("topics")) {
            String name = topic.getString("name");
            Struct topicOut = response.addStruct("topics");
            topicOut.set("name", name);
            for (Struct partition : topic.getStructs("partitions")) {
                int index = partition.getInt("partition_index");
                Struct out = topicOut.addStruct("partitions");
                out.set("partition_index", index);
                TimestampAndOffset answer = TimestampAndOffset.NOT_FOUND;
                ErrorCode error;
                Optional<TopicPartition> tp = TopicPartitions.of(name, index);
                try {
                    if (tp.isEmpty()) {
                        error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
                    } else if (!seen.add(tp.get())) {
                        error = ErrorCode.INVALID_REQUEST;
                    } else {
                        answer = replicaManager.partitionOrError(tp.get()).offsetForTimestamp(
                                partition.getLong("timestamp"), partition.getInt("current_leader_epoch"), isolation,
                                fetchOnlyFromLeader);
                        error = ErrorCode.NONE;
                    }
                } catch (RuntimeException e) {
                    error = ErrorMapping.toErrorCode(e);
                    if (error == ErrorCode.UNKNOWN_SERVER_ERROR) {
                        LOG.error("ListOffsets for {}-{} failed", name, index, e);
                    }
                }
                out.set("error_code", error.code());
                out.set("timestamp", answer.timestampMs());
                out.set("offset", answer.offset());
                out.set("leader_epoch", answer.leaderEpoch());
            }
        }
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = ListOffsetsMessages.RESPONSE.newStruct();
        for (Struct topic : request.body().getStructs("topics")) {
            Struct topicOut = response.addStruct("topics");
            topicOut.set("name", topic.getString("name"));
            for (Struct partition : topic.getStructs("partitions")) {
                Struct out = topicOut.addStruct("partitions");
                out.set("partition_index", partition.getInt("partition_index"));
                out.set("error_code", errorCode);
            }
        }
        return Optional.of(response);
    }
}
