package io.kraft.broker.txn;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Writes a transaction's COMMIT or ABORT marker into partitions this broker leads. */
public interface TransactionMarkerWriter {
    /**
     * Appends the marker of producer id/epoch's transaction to each partition, replicated as acks=all.
     *
     * @param coordinatorEpoch the controller epoch that decided the transaction (the marker's coordinator epoch)
     * @return per partition, NONE once the marker is written and replicated, or why it is not
     */
    CompletableFuture<Map<TopicPartition, Errors>> writeMarkers(long producerId, short producerEpoch,
                                                                int coordinatorEpoch, boolean commit,
                                                                List<TopicPartition> partitions);
}
