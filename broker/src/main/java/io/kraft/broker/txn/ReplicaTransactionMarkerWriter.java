package io.kraft.broker.txn;

import io.kraft.broker.replica.ReplicaManager;
import io.kraft.broker.replica.TxnMarker;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.ControlRecordType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Writes markers through the replica manager's marker path ({@link ReplicaManager#writeTxnMarkers}): checked against
 * the partition's producer state (producer and coordinator epochs), replicated as acks=all.
 */
public final class ReplicaTransactionMarkerWriter implements TransactionMarkerWriter {
    private final ReplicaManager replicas;
    private final long timeoutMs;

    /** @param timeoutMs how long a marker waits for the in-sync replicas */
    public ReplicaTransactionMarkerWriter(ReplicaManager replicas, long timeoutMs) {
        this.replicas = Objects.requireNonNull(replicas, "replicas");
        this.timeoutMs = timeoutMs;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Errors>> writeMarkers(long producerId, short producerEpoch,
                                                                       int coordinatorEpoch, boolean commit,
                                                                       List<TopicPartition> partitions) {
        return replicas.writeTxnMarkers(new TxnMarker(producerId, producerEpoch, coordinatorEpoch,
                commit ? ControlRecordType.COMMIT : ControlRecordType.ABORT, partitions), timeoutMs);
    }
}
