package io.kraft.storage.log;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * What moves a log's start forward, under its lock: the retention pass, which deletes the oldest segments past
 * retention.ms by their newest timestamp, then beyond retention.bytes (both only with the delete policy), then
 * wholly below the log start; and DeleteRecords, which moves the start to an offset. Retention deletes a prefix of
 * the log and never a segment holding an offset at or above the high watermark; an expired active segment goes only
 * when non-empty and wholly below it, rolled first. Moving the start trims the leader epoch cache and the producer
 * snapshots of deleted segments; the producers themselves stay (KIP-360).
 */
final class LogRetention {
    private final LogSegments segments;
    private final LogBounds bounds;
    private final LeaderEpochCache epochCache;
    private final LogProducerState producerState;
    /** Rolls the log at an offset (the log's own roll, which keeps its end and flush state right). */
    private final LongFunction<LogSegment> roll;

    LogRetention(LogSegments segments, LogBounds bounds, LeaderEpochCache epochCache, LogProducerState producerState,
                 LongFunction<LogSegment> roll) {
        this.segments = segments;
        this.bounds = bounds;
        this.epochCache = epochCache;
        this.producerState = producerState;
        this.roll = roll;
    }

    /**
     * One retention pass; each rule sees the segments the previous one left.
     *
     * @return the number of segments removed from the log
     */
    int deleteExpired(LogConfig config, long nowMs, long highWatermark) {
        int deleted = deleteOldest(pastRetentionTime(config, nowMs, highWatermark), config);
        deleted += deleteOldest(beyondRetentionSize(config, highWatermark), config);
        deleted += deleteOldest(belowLogStart(highWatermark), config);
        return deleted;
    }

    /**
     * DeleteRecords: moves the log start up to {@code offset} (never down) and removes the inactive segments wholly
     * below it.
     *
     * @return the log start offset afterwards
     */
    long deleteRecordsBefore(long offset, LogConfig config) {
        if (offset > bounds.startOffset()) {
            bounds.setStartOffset(offset);
            epochCache.truncateFromStart(offset);
        }
        List<LogSegment> below = belowLogStart(Long.MAX_VALUE);
        if (!below.isEmpty()) {
            segments.retire(below, config.fileDeleteDelayMs());
            producerState.deleteSnapshotsBelow(segments.firstBaseOffset());
        }
        return bounds.startOffset();
    }

    /** The oldest segments whose newest timestamp (or file time) is more than retention.ms before {@code nowMs}. */
    List<LogSegment> pastRetentionTime(LogConfig config, long nowMs, long highWatermark) {
        if (!config.delete() || config.retentionMs() < 0) {
            return List.of();
        }
        return oldestWhile(s -> nowMs - s.largestTimestampMs() > config.retentionMs(), highWatermark);
    }

    /** The oldest segments that can go while the log stays at or above retention.bytes. */
    List<LogSegment> beyondRetentionSize(LogConfig config, long highWatermark) {
        if (!config.delete() || config.retentionBytes() < 0) {
            return List.of();
        }
        long[] excessBytes = {segments.sizeInBytes() - config.retentionBytes()};
        return oldestWhile(s -> {
            if (excessBytes[0] - s.sizeBytes() >= 0) {
                excessBytes[0] -= s.sizeBytes();
                return true;
            }
            return false;
        }, highWatermark);
    }

    /** Whatever the policy: inactive segments wholly below the log start (a roll after DeleteRecords). */
    List<LogSegment> belowLogStart(long highWatermark) {
        LogSegment active = segments.active();
        long start = bounds.startOffset();
        return oldestWhile(s -> s != active && segments.nextBaseOffset(s.baseOffset()) <= start, highWatermark);
    }

    private List<LogSegment> oldestWhile(Predicate<LogSegment> expired, long upperBoundOffset) {
        List<LogSegment> deletable = new ArrayList<>();
        LogSegment active = segments.active();
        for (LogSegment segment : segments.inOrder()) {
            if (segment == active) {
                if (segment.sizeBytes() == 0 || bounds.endOffset() > upperBoundOffset) {
                    break;
                }
            } else {
                Long nextBase = segments.nextBaseOffset(segment.baseOffset());
                if (nextBase == null || nextBase > upperBoundOffset) {
                    break;
                }
            }
            if (!expired.test(segment)) {
                break;
            }
            deletable.add(segment);
        }
        return deletable;
    }

    /** Deletes a prefix of the log, rolling first if the active segment is in it, and moves the start past it. */
    private int deleteOldest(List<LogSegment> deletable, LogConfig config) {
        if (deletable.isEmpty()) {
            return 0;
        }
        if (deletable.contains(segments.active())) {
            roll.apply(bounds.endOffset());
        }
        segments.retire(deletable, config.fileDeleteDelayMs());
        producerState.deleteSnapshotsBelow(segments.firstBaseOffset());
        long newStart = Math.max(bounds.startOffset(), segments.firstBaseOffset());
        if (newStart > bounds.startOffset()) {
            bounds.setStartOffset(newStart);
            epochCache.truncateFromStart(newStart);
        }
        return deletable.size();
    }
}
