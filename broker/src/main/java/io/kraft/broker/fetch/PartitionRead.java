package io.kraft.broker.fetch;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.FileSlice;
import java.util.Optional;

/**
 * One partition's part of a fetch: an error or the record bytes (a file slice, sent with zero copy) and
 * the partition's offsets as seen by the read.
 *
 * @param divergingEpoch set when a follower's last fetched epoch ends before its fetch offset (KIP-320):
 *                       it must truncate, and gets no records
 */
public record PartitionRead(Errors error, FileSlice records, long highWatermark, long lastStableOffset,
                            long logStartOffset, long logEndOffset, Optional<EpochEndOffset> divergingEpoch,
                            int leaderId, int leaderEpoch) {

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
