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
     * Reads {@code partition} from its log start to its committed end, in offset order.
     *
     * @return the records; fails with {@link CoordinatorLogException} when the partition cannot be read
     */
    CompletableFuture<List<CoordinatorRecord>> readAll(int partition);
}
