package io.kraft.broker.replica;

import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.EpochEntry;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.OffsetOutOfRangeException;
import io.kraft.storage.log.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A partition's copy of its log being built in another log directory of this broker (KIP-113's future replica):
 * batches are copied from the partition's log as they are, keeping offsets, leader epochs and producer state, and the
 * copy follows what happens to the source meanwhile (retention or DeleteRecords moving its start, a follower's
 * truncation) the way a follower follows its leader. Not thread-safe: one mover drives it.
 */
final class FutureReplica {
    /** A batch's base offset and length fields, which its length does not count. */
    private static final int LOG_OVERHEAD = Long.BYTES + Integer.BYTES;

    private final TopicPartition topicPartition;
    private final Path dir;
    private final Log log;
    private final AtomicLong copiedBytes = new AtomicLong();

    FutureReplica(TopicPartition topicPartition, Path dir, Log log) {
        this.topicPartition = topicPartition;
        this.dir = dir;
        this.log = log;
    }

    TopicPartition topicPartition() {
        return topicPartition;
    }

    /** The log directory the partition moves to. */
    Path dir() {
        return dir;
    }

    Log log() {
        return log;
    }

    /** Bytes copied into the future log by this process. */
    long copiedBytes() {
        return copiedBytes.get();
    }

    /** Whether the copy holds every offset of {@code source}. */
    boolean caughtUp(Log source) {
        return log.logEndOffset() == source.logEndOffset();
    }

    /**
     * Copies at most about {@code maxBytes} (a whole first batch at least) of {@code source} past the copy's end,
     * after aligning the copy's start and history with the source's.
     *
     * @return the bytes copied, 0 when there was nothing to copy
     */
    int copyFrom(Log source, int maxBytes, long nowMs) {
        align(source);
        long from = log.logEndOffset();
        long to = source.logEndOffset();
        if (from >= to) {
            return 0;
        }
        ByteBuffer batches;
        try {
            batches = source.read(from, maxBytes, to, true).records().readFully();
        } catch (OffsetOutOfRangeException e) {
            return 0; // retention moved the source's start meanwhile: the next call aligns the copy
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + topicPartition + " to copy it to " + dir, e);
        }
        int size = wholeBatches(batches);
        if (size > 0) {
            log.appendAsFollower(batches, nowMs);
            copiedBytes.addAndGet(size);
        }
        return size;
    }

    /**
     * Copies whatever the copy still lacks and the leader epochs that started without records (a new leader's epoch
     * before its first append); called with the partition's writers held off, just before the copy replaces the log.
     */
    void finish(Log source, long nowMs) {
        while (copyFrom(source, Integer.MAX_VALUE, nowMs) > 0) {
            // until the copy ends where the source ends
        }
        if (!caughtUp(source)) {
            throw new IllegalStateException("the copy of " + topicPartition + " in " + dir + " ends at "
                    + log.logEndOffset() + ", its source at " + source.logEndOffset());
        }
        for (EpochEntry entry : source.leaderEpochCache().entries()) {
            log.leaderEpochCache().assign(entry.epoch(), entry.startOffset());
        }
    }

    /** Cuts a read's partial last batch off (a read stops at its byte limit); returns the bytes left. */
    private static int wholeBatches(ByteBuffer batches) {
        int end = batches.position();
        while (end + LOG_OVERHEAD <= batches.limit()) {
            int next = end + LOG_OVERHEAD + batches.getInt(end + Long.BYTES);
            if (next > batches.limit()) {
                break;
            }
            end = next;
        }
        batches.limit(end);
        return batches.remaining();
    }

    /** Moves the copy's start with the source's and truncates what the source no longer has (a diverged follower). */
    private void align(Log source) {
        long sourceStart = source.logStartOffset();
        if (log.logEndOffset() < sourceStart) {
            log.truncateFullyAndStartAt(sourceStart);
            return;
        }
        if (log.logStartOffset() < sourceStart) {
            log.deleteRecordsBefore(sourceStart);
        }
        Optional<EpochEntry> latest = log.leaderEpochCache().latestEntry();
        long safeEnd = Math.min(log.logEndOffset(), source.logEndOffset());
        if (latest.isPresent()) {
            EpochEndOffset end = source.leaderEpochCache().endOffsetFor(latest.get().epoch(), source.logEndOffset());
            if (end.epoch() == EpochEndOffset.UNDEFINED_EPOCH) {
                log.truncateFullyAndStartAt(sourceStart);
                return;
            }
            safeEnd = Math.min(safeEnd, end.endOffset());
        }
        if (safeEnd < log.logEndOffset()) {
            log.truncateTo(Math.max(safeEnd, log.logStartOffset()));
        }
    }
}
