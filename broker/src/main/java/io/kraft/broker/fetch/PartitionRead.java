package io.kraft.broker.fetch;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.AbortedTxn;
import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.FileSlice;
import java.util.List;
import java.util.Optional;

/**
 * One partition's part of a fetch: an error or the record bytes (a file slice, sent with zero copy) and
 * the partition's offsets as seen by the read.
 *
 * @param divergingEpoch      set when a follower's last fetched epoch ends before its fetch offset (KIP-320):
 *                            it must truncate, and gets no records
 * @param abortedTransactions for a read_committed read, the aborted transactions overlapping the records (KIP-98);
 *                            null for other reads
 */
public record PartitionRead(Errors error, FileSlice records, long highWatermark, long lastStableOffset,
                            long logStartOffset, long logEndOffset, Optional<EpochEndOffset> divergingEpoch,
                            int leaderId, int leaderEpoch, List<AbortedTxn> abortedTransactions) {

    /** A read that is not read_committed. */
    public PartitionRead(Errors error, FileSlice records, long highWatermark, long lastStableOffset,
                         long logStartOffset, long logEndOffset, Optional<EpochEndOffset> divergingEpoch,
                         int leaderId, int leaderEpoch) {
        this(error, records, highWatermark, lastStableOffset, logStartOffset, logEndOffset, divergingEpoch, leaderId,
                leaderEpoch, null);
    }

    public static PartitionRead failed(Errors error) {
        return new PartitionRead(error, FileSlice.empty(), -1L, -1L, -1L, -1L, Optional.empty(), -1, -1);
    }

    public static PartitionRead failed(Errors error, int leaderId, int leaderEpoch) {
        return new PartitionRead(error, FileSlice.empty(), -1L, -1L, -1L, -1L, Optional.empty(), leaderId, leaderEpoch);
    }

    public int sizeBytes() {
        return records.sizeBytes();
    }
}
