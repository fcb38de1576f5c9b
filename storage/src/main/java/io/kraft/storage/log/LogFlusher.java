package io.kraft.storage.log;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When a log's data becomes durable, and the recovery point that records it (a reopen re-validates only what lies
 * past it): flushes after appends when flush.messages or flush.ms say so, full flushes, and the fsync of segments
 * rolled by appends, handed to an executor and run without the log's lock so appends to the new segment go on.
 * Truncations and swaps bump a generation, so an fsync that started before one never moves the recovery point over
 * data that changed underneath it.
 *
 * <p>Methods named {@code ...Locked} run under the log's lock; the others take it themselves.
 */
final class LogFlusher {
    private static final Logger LOG = LoggerFactory.getLogger(LogFlusher.class);

    private final Path dir;
    private final ReentrantLock lock;
    private final LogSegments segments;
    /** Runs the fsync of segments rolled by appends: inline by default, a background thread in a broker. */
    private final Executor rollFlushExecutor;
    private final BooleanSupplier closed;
    /** Hears the I/O error of a background fsync, which has no caller to throw to. */
    private final Consumer<LogStorageException> ioErrors;
    private volatile long recoveryPoint;
    private long unflushedRecords;
    private long lastFlushMs = -1;
    /** Offset up to which rolled segments await their fsync, done outside the lock; -1 if none. */
    private long pendingRollFlushOffset = -1;
    /** Bumped whenever data may be removed, so an fsync started before it cannot move the recovery point. */
    private volatile long truncationGeneration;

    LogFlusher(Path dir, ReentrantLock lock, LogSegments segments, long recoveryPoint, Executor rollFlushExecutor,
               BooleanSupplier closed, Consumer<LogStorageException> ioErrors) {
        this.ioErrors = ioErrors;
        this.dir = dir;
        this.lock = lock;
        this.segments = segments;
        this.recoveryPoint = recoveryPoint;
        this.rollFlushExecutor = rollFlushExecutor;
        this.closed = closed;
    }

    /** Offsets below this are fsynced. */
    long recoveryPoint() {
        return recoveryPoint;
    }

    /** Counts appended records toward flush.messages, then flushes if flush.messages or flush.ms says so. */
    void onAppendLocked(long recordCount, long nowMs, LogConfig config, long logEndOffset) {
        unflushedRecords += recordCount;
        maybeFlushLocked(nowMs, config, logEndOffset);
    }

    void maybeFlushLocked(long nowMs, LogConfig config, long logEndOffset) {
        if (lastFlushMs < 0) {
            lastFlushMs = nowMs;
        }
        if (unflushedRecords >= config.flushMessages() || nowMs - lastFlushMs >= config.flushMs()) {
            flushUpToLocked(logEndOffset, logEndOffset);
            lastFlushMs = nowMs;
        }
    }

    /** fsyncs the segments holding offsets below {@code offset} and moves the recovery point there. */
    void flushUpToLocked(long offset, long logEndOffset) {
        if (offset <= recoveryPoint) {
            return;
        }
        for (LogSegment segment : segments.between(recoveryPoint, offset)) {
            segment.flush();
        }
        segments.fsyncDirectoryIfDirty();
        recoveryPoint = offset;
        if (offset >= logEndOffset) {
            unflushedRecords = 0;
        }
    }

    /** A segment ending at {@code baseOffset} was rolled: once durable, the recovery point may move there. */
    void onRollLocked(long baseOffset) {
        pendingRollFlushOffset = Math.max(pendingRollFlushOffset, baseOffset);
    }

    /** Data is about to be removed from the end (truncation): no pending or running fsync may count any more. */
    void onTruncationLocked() {
        truncationGeneration++;
        pendingRollFlushOffset = -1;
    }

    /** The cleaner is about to swap segments: an fsync running now must not move the recovery point. */
    void onSegmentsReplacedLocked() {
        truncationGeneration++;
    }

    /** After a truncation to {@code logEndOffset}: nothing past the new end can be durable. */
    void truncatedToLocked(long logEndOffset) {
        recoveryPoint = Math.min(recoveryPoint, logEndOffset);
    }

    /** After the log restarted empty at {@code offset}, fsynced: everything it holds is durable. */
    void restartedAtLocked(long offset) {
        recoveryPoint = offset;
        unflushedRecords = 0;
    }

    /** Hands the fsync of segments an append just rolled to the roll-flush executor, if there are any. */
    void scheduleRollFlush() {
        boolean pending;
        lock.lock();
        try {
            pending = !closed.getAsBoolean() && pendingRollFlushOffset > recoveryPoint;
        } finally {
            lock.unlock();
        }
        if (pending) {
            rollFlushExecutor.execute(this::flushRolledSegmentsQuietly);
        }
    }

    private void flushRolledSegmentsQuietly() {
        try {
            flushRolledSegments();
        } catch (LogStorageException e) {
            // Not retried: after a failed fsync the kernel may have dropped the dirty pages and a second fsync would
            // succeed over lost data. The recovery point stays, and the directory goes offline.
            LOG.error("log {} could not fsync its rolled segments: {}", dir, e.getMessage());
            ioErrors.accept(e);
        } catch (RuntimeException e) {
            LOG.error("log {} could not fsync its rolled segments: {}", dir, e.toString());
        }
    }

    /**
     * Makes segments rolled since the last flush durable and advances the recovery point, without holding the
     * log's lock during the fsync, so appends to the new segment go on meanwhile. Runs on the calling thread.
     */
    void flushRolledSegments() {
        List<LogSegment> toFlush;
        long target;
        long generation;
        lock.lock();
        try {
            if (closed.getAsBoolean() || pendingRollFlushOffset <= recoveryPoint) {
                pendingRollFlushOffset = -1;
                return;
            }
            target = pendingRollFlushOffset;
            pendingRollFlushOffset = -1;
            generation = truncationGeneration;
            toFlush = segments.between(recoveryPoint, target);
            segments.clearDirectoryDirty();
        } finally {
            lock.unlock();
        }
        for (LogSegment segment : toFlush) {
            try {
                segment.flush();
            } catch (RuntimeException e) {
                if (closed.getAsBoolean() || truncationGeneration != generation) {
                    return; // closed or truncated under the flush: nothing to advance
                }
                if (segments.get(segment.baseOffset()) != segment) {
                    continue; // deleted meanwhile (retention, DeleteRecords): no longer needs to be durable
                }
                throw e;
            }
        }
        segments.fsyncDirectory();
        lock.lock();
        try {
            if (!closed.getAsBoolean() && truncationGeneration == generation && recoveryPoint < target) {
                recoveryPoint = target;
            }
        } finally {
            lock.unlock();
        }
    }
}
