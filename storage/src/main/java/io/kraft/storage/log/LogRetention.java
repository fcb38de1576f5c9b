package io.kraft.storage.log;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which of a log's oldest segments retention may delete: those past retention.ms by their newest timestamp, those
 * beyond retention.bytes (both only with the delete policy), and those wholly below the log start. Always a prefix
 * of the log, and never a segment holding an offset at or above the high watermark; an expired active segment is
 * chosen only when non-empty and wholly below it (the log then rolls before deleting). Chooses only: the log
 * deletes, and passes the segments left to the next rule.
 */
final class LogRetention {
    private LogRetention() {
    }

    /** The oldest segments whose newest timestamp (or file time) is more than retention.ms before {@code nowMs}. */
    static List<LogSegment> pastRetentionTime(LogSegments segments, LogConfig config, long nowMs, long logEndOffset,
                                              long highWatermark) {
        if (!config.delete() || config.retentionMs() < 0) {
            return List.of();
        }
        return oldestWhile(segments, s -> nowMs - s.largestTimestampMs() > config.retentionMs(), logEndOffset,
                highWatermark);
    }

    /** The oldest segments that, deleted, leave the log at or above retention.bytes. */
    static List<LogSegment> beyondRetentionSize(LogSegments segments, LogConfig config, long logEndOffset,
                                                long highWatermark) {
        if (!config.delete() || config.retentionBytes() < 0) {
            return List.of();
        }
        long[] excessBytes = {segments.sizeInBytes() - config.retentionBytes()};
        return oldestWhile(segments, s -> {
            if (excessBytes[0] - s.sizeBytes() >= 0) {
                excessBytes[0] -= s.sizeBytes();
                return true;
            }
            return false;
        }, logEndOffset, highWatermark);
    }

    /** Whatever the policy: inactive segments a roll left wholly below the log start (after DeleteRecords). */
    static List<LogSegment> belowLogStart(LogSegments segments, long logStartOffset, long logEndOffset,
                                          long highWatermark) {
        LogSegment active = segments.active();
        return oldestWhile(segments,
                s -> s != active && segments.nextBaseOffset(s.baseOffset()) <= logStartOffset, logEndOffset,
                highWatermark);
    }

    private static List<LogSegment> oldestWhile(LogSegments segments, Predicate<LogSegment> expired,
                                                long logEndOffset, long upperBoundOffset) {
        List<LogSegment> deletable = new ArrayList<>();
        LogSegment active = segments.active();
        for (LogSegment segment : segments.inOrder()) {
            if (segment == active) {
                if (segment.sizeBytes() == 0 || logEndOffset > upperBoundOffset) {
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
}
