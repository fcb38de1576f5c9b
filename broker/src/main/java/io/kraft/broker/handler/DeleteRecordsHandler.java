package io.kraft.broker.handler;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.DeleteRecordsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.replica.ErrorCode;
import io.kraft.broker.replica.ErrorMapping;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.storage.log.TopicPartition;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers DeleteRecords (v0-2) on the partitions' leader: moves each log start offset up to the requested
 * offset (-1 = the high watermark; above it, OFFSET_OUT_OF_RANGE) and answers the new low watermark. The
 * leader's log start is the answer; followers follow it on their next fetch, and the answer does not wait
 * for them (Kafka waits for the ISR's low watermark).
 */
public final class DeleteRecordsHandler implements RequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(DeleteRecordsHandler.class);

    private final ReplicaManager replicaManager;

    public DeleteRecordsHandler(ReplicaManager replicaManager) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DELETE_RECORDS;
    }

    @Override
    public Struct handle(RequestContext context, ParsedRequest request) {
        Struct response = DeleteRecordsMessages.RESPONSE.newStruct();
        for (Struct topic : request.body().getStructs("topics")) {
            String name = topic.getString("name");
            Struct topicOut = response.addStruct("topics");
            topicOut.set("name", name);
            for (Struct partition : topic.getStructs("partitions")) {
                int index = partition.getInt("partition_index");
                Struct out = topicOut.addStruct("partitions");
                out.set("partition_index", index);
                long lowWatermark = -1L;
                ErrorCode error = ErrorCode.NONE;
                Optional<TopicPartition> tp = TopicPartitions.of(name, index);
                try {
                    if (tp.isEmpty()) {
                        error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
                    } else {
                        lowWatermark = replicaManager.deleteRecords(tp.get(), partition.getLong("offset"));
                    }
                } catch (RuntimeException e) {
                    error = ErrorMapping.toErrorCode(e);
                    if (error == ErrorCode.UNKNOWN_SERVER_ERROR) {
                        LOG.error("DeleteRecords on {}-{} failed", name, index, e);
                    }
                }
                out.set("low_watermark", lowWatermark);
                out.set("error_code", error.code());
            }
        }
        return response;
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = DeleteRecordsMessages.RESPONSE.newStruct();
        for (Struct topic : request.body().getStructs("topics")) {
            Struct topicOut = response.addStruct("topics");
            topicOut.set("name", topic.getString("name"));
            for (Struct partition : topic.getStructs("partitions")) {
                Struct out = topicOut.addStruct("partitions");
                out.set("partition_index", partition.getInt("partition_index"));
                out.set("low_watermark", -1L);
                out.set("error_code", errorCode);
            }
        }
        return Optional.of(response);
    }
}
