package io.kraft.broker.group;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the coordinator needs of the {@code __consumer_offsets} partitions it leads: append records and learn
 * when they are committed (acks=all), and read a partition back from its log start when it becomes leader.
 * Implementations may complete on any thread; the coordinator hops back onto its own.
 */
public interface CoordinatorLog {

    /**
     * Appends {@code records} as one batch to {@code partition}, as leader at {@code leaderEpoch}.
     *
     * @return completes once every in-sync replica has the batch; fails with {@link CoordinatorLogException}
     */
    CompletableFuture<Void> append(int partition, int leaderEpoch, List<CoordinatorRecord> records);

    /**
     * Appends {@code records} as one transactional batch of the producer (TxnOffsetCommit, KIP-98): they count only
     * once the transaction's COMMIT marker follows them in the partition.
     *
     * @return completes once every in-sync replica has the batch; fails with {@link CoordinatorLogException}, whose
     *         error is INVALID_PRODUCER_EPOCH when the partition has seen a newer epoch of the producer
     */
    CompletableFuture<Void> appendTransactional(int partition, int leaderEpoch, long producerId, short producerEpoch,
                                                List<CoordinatorRecord> records);

    /**
     * Reads {@code partition} from its log start to its end, in offset order, with the transaction markers.
     *
     * @return the entries; fails with {@link CoordinatorLogException} when the partition cannot be read
     */
    CompletableFuture<List<CoordinatorLogEntry>> readAll(int partition);
}
