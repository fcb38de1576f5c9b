package io.kraft.storage.log;

import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The offsets of one append, from a single pass over its batches under the log's lock: a leader assigns consecutive
 * offsets from the log end, its epoch and (LogAppendTime) the time, in place; a follower's batches must start at or
 * above the log end and increase. Either pass also sums up what {@link AppendInfo} reports and the record count the
 * flush policy counts.
 *
 * <p>Reused: a log owns one and runs each pass under its lock, so an append allocates nothing for it.
 */
final class AppendOffsets {
    private long firstOffset = -1;
    private long nextOffset;
    private long maxTimestampMs = RecordBatch.NO_TIMESTAMP;
    private long offsetOfMaxTimestamp = -1;
    private long recordCount;

    private void reset() {
        firstOffset = -1;
        nextOffset = 0;
        maxTimestampMs = RecordBatch.NO_TIMESTAMP;
        offsetOfMaxTimestamp = -1;
        recordCount = 0;
    }

    /**
     * Stamps a leader's batches in place: base offsets from {@code firstOffset}, {@code leaderEpoch}, and
     * {@code logAppendTimeMs} unless it is {@link RecordBatch#NO_TIMESTAMP} (CreateTime).
     */
    AppendOffsets assign(ByteBuffer batches, long firstOffset, int leaderEpoch, long logAppendTimeMs) {
        reset();
        this.firstOffset = firstOffset;
        long next = firstOffset;
        for (int p = batches.position(); p < batches.limit(); ) {
            RecordBatch batch = new RecordBatch(batches, p);
            batch.setBaseOffset(next);
            batch.setPartitionLeaderEpoch(leaderEpoch);
            if (logAppendTimeMs != RecordBatch.NO_TIMESTAMP) {
                batch.setLogAppendTime(logAppendTimeMs);
            }
            add(batch);
            next = batch.nextOffset();
            p += batch.sizeInBytes();
        }
        return this;
    }

    /**
     * Checks a follower's batches keep offsets at or above {@code logEndOffset}, increasing, with gaps allowed (a
     * compacted leader's log has them).
     *
     * @throws UnexpectedAppendOffsetException naming the first batch that does not
     */
    AppendOffsets checkFollower(ByteBuffer records, long logEndOffset, Path dir) {
        return checkFollower(records, logEndOffset, EpochEndOffset.UNDEFINED_EPOCH, true, dir);
    }

    /**
     * Checks a follower's batches continue the log: each starts where the previous ended (or, with
     * {@code gapsAllowed}, above it: compaction removes whole batches from the leader's log, so only a compacted
     * log may have gaps), and no batch's leader epoch is older than the one before it or than {@code latestEpoch},
     * the log's newest.
     *
     * @throws UnexpectedAppendOffsetException naming the first batch that overlaps the log or leaves a gap
     * @throws UnexpectedLeaderEpochException  naming the first batch whose epoch goes back
     */
    AppendOffsets checkFollower(ByteBuffer records, long logEndOffset, int latestEpoch, boolean gapsAllowed,
                                Path dir) {
        reset();
        long expected = logEndOffset;
        int epoch = latestEpoch;
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            if (batch.baseOffset() < expected) {
                throw new UnexpectedAppendOffsetException("follower append of batch at offset " + batch.baseOffset()
                        + " to log " + dir + " expects offset " + expected + " or above");
            }
            if (batch.baseOffset() > expected && !gapsAllowed) {
                throw new UnexpectedAppendOffsetException("follower append of batch at offset " + batch.baseOffset()
                        + " to log " + dir + " would leave a gap after offset " + (expected - 1) + " (expected "
                        + expected + "; only a compacted log has gaps)");
            }
            if (batch.partitionLeaderEpoch() < epoch) {
                throw new UnexpectedLeaderEpochException("follower append of batch at offset " + batch.baseOffset()
                        + " to log " + dir + " has leader epoch " + batch.partitionLeaderEpoch() + ", older than epoch "
                        + epoch + " already in the log");
            }
            epoch = Math.max(epoch, batch.partitionLeaderEpoch());
            if (firstOffset < 0) {
                firstOffset = batch.baseOffset();
            }
            add(batch);
            expected = batch.nextOffset();
            p += batch.sizeInBytes();
        }
        return this;
    }

    private void add(RecordBatch batch) {
        if (batch.maxTimestamp() > maxTimestampMs) {
            maxTimestampMs = batch.maxTimestamp();
            offsetOfMaxTimestamp = batch.baseOffset();
        }
        recordCount += batch.recordCount();
        nextOffset = batch.nextOffset();
    }

    long firstOffset() {
        return firstOffset;
    }

    long lastOffset() {
        return nextOffset - 1;
    }

    long recordCount() {
        return recordCount;
    }

    AppendInfo toAppendInfo(long logAppendTimeMs, int sizeBytes, int batchCount) {
        return new AppendInfo(firstOffset, nextOffset - 1, maxTimestampMs, offsetOfMaxTimestamp, logAppendTimeMs,
                sizeBytes, batchCount, false);
    }
}
