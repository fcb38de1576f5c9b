package io.kraft.broker.txn;

import io.kraft.broker.replica.ReplicaManager;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.ControlRecordType;
import io.kraft.storage.record.EndTransactionMarker;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Writes markers as control batches through the replica manager's leader append path with acks=all, as a producer's
 * batch would be (the log's producer state sees them like any other batch of that producer).
 */
public final class ReplicaTransactionMarkerWriter implements TransactionMarkerWriter {
    private final ReplicaManager replicas;
    private final long timeoutMs;
    private final LongSupplier clockMs;

    /** @param timeoutMs how long an append waits for the in-sync replicas */
    public ReplicaTransactionMarkerWriter(ReplicaManager replicas, long timeoutMs, LongSupplier clockMs) {
        this.replicas = Objects.requireNonNull(replicas, "replicas");
        this.timeoutMs = timeoutMs;
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Errors>> writeMarkers(long producerId, short producerEpoch,
                                                                       int coordinatorEpoch, boolean commit,
                                                                       List<TopicPartition> partitions) {
        EndTransactionMarker marker = new EndTransactionMarker(commit ? ControlRecordType.COMMIT
                : ControlRecordType.ABORT, coordinatorEpoch);
        long nowMs = clockMs.getAsLong();
        Map<TopicPartition, ByteBuffer> batches = new LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            batches.put(partition, marker.toBatch(0L, 0, producerId, producerEpoch, nowMs));
        }
        return replicas.appendRecords(timeoutMs, (short) -1, true, batches).thenApply(results -> {
            Map<TopicPartition, Errors> errors = new LinkedHashMap<>();
            results.forEach((partition, result) -> errors.put(partition, result.error()));
            return errors;
        });
    }
}
