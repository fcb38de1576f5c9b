package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DeleteRecordsRequest;
import io.kraft.broker.protocol.message.DeleteRecordsRequest.DeleteRecordsPartition;
import io.kraft.broker.protocol.message.DeleteRecordsRequest.DeleteRecordsTopic;
import io.kraft.broker.protocol.message.DeleteRecordsResponse;
import io.kraft.broker.protocol.message.DeleteRecordsResponse.DeleteRecordsPartitionResult;
import io.kraft.broker.protocol.message.DeleteRecordsResponse.DeleteRecordsTopicResult;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
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
public final class DeleteRecordsHandler implements RequestHandler<DeleteRecordsRequest, DeleteRecordsResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(DeleteRecordsHandler.class);
    private static final PartitionRequests<DeleteRecordsTopic, DeleteRecordsPartition, DeleteRecordsTopicResult,
            DeleteRecordsPartitionResult> PARTITIONS = new PartitionRequests<>("DeleteRecords",
            DeleteRecordsTopic::name, DeleteRecordsTopic::partitions, DeleteRecordsPartition::partitionIndex,
            (name, partitions) -> new DeleteRecordsTopicResult().setName(name).setPartitions(partitions),
            index -> new DeleteRecordsPartitionResult().setPartitionIndex(index));

    private final ReplicaManager replicaManager;

    public DeleteRecordsHandler(ReplicaManager replicaManager) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DELETE_RECORDS;
    }

    @Override
    public DeleteRecordsResponse handle(RequestContext context, ApiRequest<DeleteRecordsRequest> request) {
        return new DeleteRecordsResponse().setTopics(PARTITIONS.respond(request.body().topics(),
                topic -> context.authorize(AclOperation.DELETE, ResourceType.TOPIC, topic),
                (tp, partition, out) -> out.setLowWatermark(replicaManager.deleteRecords(tp, partition.offset())),
                DeleteRecordsHandler::failed, LOG));
    }

    @Override
    public Optional<DeleteRecordsResponse> errorResponse(ApiRequest<DeleteRecordsRequest> request, Errors error) {
        return Optional.of(new DeleteRecordsResponse().setTopics(
                PARTITIONS.errorResponse(request.body().topics(), error, DeleteRecordsHandler::failed)));
    }

    private static void failed(DeleteRecordsPartitionResult out, short errorCode) {
        out.setLowWatermark(-1L);
        out.setErrorCode(errorCode);
    }
}
