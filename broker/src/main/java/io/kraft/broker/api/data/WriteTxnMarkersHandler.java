package io.kraft.broker.api.data;

import io.kraft.broker.api.TopicPartitions;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.WriteTxnMarkersRequest;
import io.kraft.broker.protocol.message.WriteTxnMarkersRequest.WritableTxnMarker;
import io.kraft.broker.protocol.message.WriteTxnMarkersRequest.WritableTxnMarkerTopic;
import io.kraft.broker.protocol.message.WriteTxnMarkersResponse;
import io.kraft.broker.protocol.message.WriteTxnMarkersResponse.WritableTxnMarkerPartitionResult;
import io.kraft.broker.protocol.message.WriteTxnMarkersResponse.WritableTxnMarkerResult;
import io.kraft.broker.protocol.message.WriteTxnMarkersResponse.WritableTxnMarkerTopicResult;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.broker.replica.TxnMarker;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.ControlRecordType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers WriteTxnMarkers (v1; KIP-98) on the partitions' leader: each marker (a producer's transaction committed
 * or aborted, by a coordinator epoch) is appended to each named partition through
 * {@link ReplicaManager#writeTxnMarkers}, and the answer waits until every marker is replicated to the ISR (acks=all)
 * or fails per partition. The transaction coordinator sends it, and so does the admin client's
 * {@code abortTransaction} (kafka-transactions.sh abort) for a hanging transaction.
 */
public final class WriteTxnMarkersHandler implements AsyncRequestHandler<WriteTxnMarkersRequest,
        WriteTxnMarkersResponse> {
    /** How long a marker waits for the ISR: Kafka's request.timeout.ms default, which its brokers use here. */
    public static final long MARKER_TIMEOUT_MS = 30_000;

    private final ReplicaManager replicaManager;
    private final long timeoutMs;

    public WriteTxnMarkersHandler(ReplicaManager replicaManager) {
        this(replicaManager, MARKER_TIMEOUT_MS);
    }

    public WriteTxnMarkersHandler(ReplicaManager replicaManager, long timeoutMs) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
        this.timeoutMs = timeoutMs;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.WRITE_TXN_MARKERS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<WriteTxnMarkersRequest> request) {
        List<CompletableFuture<WritableTxnMarkerResult>> results = new ArrayList<>();
        for (WritableTxnMarker marker : request.body().markers()) {
            results.add(write(marker));
        }
        return CompletableFuture.allOf(results.toArray(new CompletableFuture<?>[0])).thenApply(done -> {
            WriteTxnMarkersResponse response = new WriteTxnMarkersResponse();
            results.forEach(result -> response.markers().add(result.join()));
            return HandlerResponse.of(response);
        });
    }

    private CompletableFuture<WritableTxnMarkerResult> write(WritableTxnMarker marker) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (WritableTxnMarkerTopic topic : marker.topics()) {
            for (int index : topic.partitionIndexes()) {
                TopicPartitions.of(topic.name(), index).ifPresent(partitions::add);
            }
        }
        ControlRecordType result = marker.transactionResult() ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
        TxnMarker txn = new TxnMarker(marker.producerId(), marker.producerEpoch(), marker.coordinatorEpoch(), result,
                partitions);
        return replicaManager.writeTxnMarkers(txn, timeoutMs).thenApply(errors -> answer(marker, errors));
    }

    private static WritableTxnMarkerResult answer(WritableTxnMarker marker, Map<TopicPartition, Errors> errors) {
        WritableTxnMarkerResult out = new WritableTxnMarkerResult().setProducerId(marker.producerId());
        for (WritableTxnMarkerTopic topic : marker.topics()) {
            WritableTxnMarkerTopicResult topicOut = new WritableTxnMarkerTopicResult().setName(topic.name());
            for (int index : topic.partitionIndexes()) {
                Errors error = TopicPartitions.of(topic.name(), index).map(errors::get)
                        .orElse(Errors.UNKNOWN_TOPIC_OR_PARTITION);
                topicOut.partitions().add(new WritableTxnMarkerPartitionResult().setPartitionIndex(index)
                        .setErrorCode((error == null ? Errors.UNKNOWN_TOPIC_OR_PARTITION : error).code()));
            }
            out.topics().add(topicOut);
        }
        return out;
    }

    @Override
    public Optional<WriteTxnMarkersResponse> errorResponse(ApiRequest<WriteTxnMarkersRequest> request, Errors error) {
        WriteTxnMarkersResponse response = new WriteTxnMarkersResponse();
        for (WritableTxnMarker marker : request.body().markers()) {
            WritableTxnMarkerResult out = new WritableTxnMarkerResult().setProducerId(marker.producerId());
            for (WritableTxnMarkerTopic topic : marker.topics()) {
                WritableTxnMarkerTopicResult topicOut = new WritableTxnMarkerTopicResult().setName(topic.name());
                for (int index : topic.partitionIndexes()) {
                    topicOut.partitions().add(new WritableTxnMarkerPartitionResult().setPartitionIndex(index)
                            .setErrorCode(error.code()));
                }
                out.topics().add(topicOut);
            }
            response.markers().add(out);
        }
        return Optional.of(response);
    }
}
