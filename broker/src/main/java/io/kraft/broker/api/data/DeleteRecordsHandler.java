package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.DeleteRecordsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.replica.ReplicaManager;
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
public final class DeleteRecordsHandler implements LegacyRequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(DeleteRecordsHandler.class);
    private static final PartitionRequests PARTITIONS = new PartitionRequests("DeleteRecords", "name",
            "partition_index");

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
        return PARTITIONS.respond(request.body(), DeleteRecordsMessages.RESPONSE.newStruct(),
                (tp, partition, out) -> out.set("low_watermark",
                        replicaManager.deleteRecords(tp, partition.getLong("offset"))),
                DeleteRecordsHandler::failed, LOG);
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        return PARTITIONS.errorResponse(request.body(), DeleteRecordsMessages.RESPONSE.newStruct(), errorCode,
                DeleteRecordsHandler::failed);
    }

    private static void failed(Struct out, short errorCode) {
        out.set("low_watermark", -1L);
        out.set("error_code", errorCode);
    }
}
