package io.kraft.storage.log;

/**
 * Cutting a log back, under its lock: to an offset where a follower diverged from its leader, or entirely, to
 * restart empty at an offset (a follower far behind). Every piece of state follows the data: the end, the recovery
 * point, the leader epoch cache and the producer state (rebuilt from the newest snapshot still valid).
 */
final class LogTruncation {
    private final LogSegments segments;
    private final LogBounds bounds;
    private final LogFlusher flusher;
    private final LeaderEpochCache epochCache;
    private final LogProducerState producerState;

    LogTruncation(LogSegments segments, LogBounds bounds, LogFlusher flusher, LeaderEpochCache epochCache,
                  LogProducerState producerState) {
        this.segments = segments;
        this.bounds = bounds;
        this.flusher = flusher;
        this.epochCache = epochCache;
        this.producerState = producerState;
    }

    /**
     * Removes everything from {@code offset} on; a batch that straddles it goes as a whole. Below the log start the
     * log restarts empty at {@code offset} instead.
     *
     * @return true if anything was removed
     */
    boolean truncateTo(long offset, LogConfig config) {
        if (offset >= bounds.endOffset()) {
            // No record goes, but an epoch this replica started as leader without appending to it may start at
            // the end. Kept, it would be the follower's last fetched epoch, which its new leader never had: the
            // leader answers a diverging epoch that truncates nothing, and the follower never catches up.
            epochCache.truncateFromEnd(bounds.endOffset());
            return false;
        }
        if (offset < bounds.startOffset()) {
            restartAt(offset, config);
            return true;
        }
        flusher.onTruncationLocked();
        LogSegment target = segments.truncateTo(offset, config);
        // The end follows the data (as a reopen would find it), never below the log start.
        long newEnd = Math.max(target.readNextOffset(), bounds.startOffset());
        bounds.setEnd(new LogEnd(newEnd, target.baseOffset(), target.sizeBytes()));
        flusher.truncatedToLocked(newEnd);
        epochCache.truncateFromEnd(newEnd);
        producerState.rebuild(segments, newEnd);
        return true;
    }

    /** Drops every segment and restarts the log, empty and durably, at {@code offset}. */
    void restartAt(long offset, LogConfig config) {
        flusher.onTruncationLocked();
        segments.restartAt(offset, config);
        bounds.setEnd(new LogEnd(offset, offset, 0));
        bounds.setStartOffset(offset);
        flusher.restartedAtLocked(offset);
        epochCache.clear();
        producerState.clear();
    }
}
