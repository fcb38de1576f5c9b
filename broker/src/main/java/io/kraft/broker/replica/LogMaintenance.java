package io.kraft.broker.replica;

import io.kraft.storage.cleaner.CleanResult;
import io.kraft.storage.cleaner.LogCleaner;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogStorageException;
import io.kraft.storage.log.TopicPartition;
import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic work on the hosted logs, on one background thread: retention ({@code log.retention.check.interval.ms}),
 * compaction of compacted topics ({@code log.cleaner.backoff.ms}, when {@code log.cleaner.enable}), time-based
 * flushes, and the recovery-point, log-start and high-watermark checkpoints. Retention never goes past a
 * partition's high watermark, cleaning never past its last stable offset. One thread, so passes never overlap.
 */
final class LogMaintenance implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogMaintenance.class);

    private final ReplicaManagerConfig config;
    private final Supplier<Collection<Partition>> partitions;
    private final LogDirectories logDirs;
    private final Runnable checkpointHighWatermarks;
    private final LongSupplier clock;
    private final ScheduledExecutorService scheduler;
    private LogCleaner cleaner;

    LogMaintenance(ReplicaManagerConfig config, Supplier<Collection<Partition>> partitions, LogDirectories logDirs,
                   Runnable checkpointHighWatermarks, LongSupplier clock, int brokerId) {
        this.config = config;
        this.partitions = partitions;
        this.logDirs = logDirs;
        this.checkpointHighWatermarks = checkpointHighWatermarks;
        this.clock = clock;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "kraft-log-maintenance-" + brokerId);
            thread.setDaemon(true);
            return thread;
        });
    }

    void start() {
        schedule("retention", this::deleteExpiredSegments, config.retentionCheckIntervalMs());
        if (config.cleanerEnable()) {
            schedule("log cleaning", this::cleanCompactedLogs, config.cleanerBackoffMs());
        }
        // Long.MAX_VALUE (the default) means flushes are left to the OS and to flush.ms checked on append.
        if (config.flushSchedulerIntervalMs() < Long.MAX_VALUE / 2) {
            schedule("time-based flush", this::flushDueLogs, Math.max(1, config.flushSchedulerIntervalMs()));
        }
        schedule("offset checkpoint", logDirs::checkpointLogs, config.offsetCheckpointIntervalMs());
        schedule("high watermark checkpoint", checkpointHighWatermarks, config.highWatermarkCheckpointIntervalMs());
    }

    private void schedule(String name, Runnable task, long intervalMs) {
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (LogStorageException e) {
                // A failed disk: its directory goes offline and the next run leaves it out.
                LOG.warn("{} failed: {}", name, e.getMessage());
            } catch (RuntimeException e) {
                // The next run tries again; one bad pass must not end the schedule.
                LOG.error("{} failed", name, e);
            }
        }, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    void deleteExpiredSegments() {
        long nowMs = clock.getAsLong();
        for (Partition partition : partitions.get()) {
            Log log = partition.log();
            if (log.isClosed()) {
                continue;
            }
            try {
                int deleted = log.deleteExpiredSegments(nowMs, partition.highWatermark());
                if (deleted > 0) {
                    LOG.info("retention deleted {} segments of {}; log start offset is now {}", deleted,
                            partition.topicPartition(), log.logStartOffset());
                }
            } catch (LogStorageException e) {
                LOG.warn("retention of {} failed: {}", partition.topicPartition(), e.getMessage());
            } catch (RuntimeException e) {
                LOG.error("retention of {} failed", partition.topicPartition(), e);
            }
        }
    }

    void cleanCompactedLogs() {
        long nowMs = clock.getAsLong();
        for (Partition partition : partitions.get()) {
            Log log = partition.log();
            if (log.isClosed() || !log.config().compact()) {
                continue;
            }
            TopicPartition tp = partition.topicPartition();
            long checkpointed = logDirs.cleanerOffset(tp);
            // A follower may have truncated below where the last pass ended: what it appends again is dirty.
            long firstDirty = checkpointed > log.logEndOffset() ? log.logStartOffset()
                    : Math.max(checkpointed, log.logStartOffset());
            // Never past an open transaction: whether its data stays (commit) or goes (abort) is not known yet.
            long uncleanable = partition.lastStableOffset();
            try {
                if (LogCleaner.dirtyRatio(log, firstDirty, uncleanable, nowMs) < log.config().minCleanableDirtyRatio()) {
                    continue;
                }
                if (cleaner == null) {
                    cleaner = new LogCleaner(config.cleanerDedupeBufferBytes());
                }
                CleanResult result = cleaner.clean(log, firstDirty, uncleanable, nowMs);
                logDirs.checkpointCleanerOffset(tp, result.nextDirtyOffset());
            } catch (LogStorageException e) {
                // The cleaner writes its own segments: a disk error there fails the directory like any other.
                LOG.warn("cleaning {} failed: {}", tp, e.getMessage());
                logDirs.reportIoError(log, e);
            } catch (RuntimeException e) {
                LOG.error("cleaning {} failed", tp, e);
            }
        }
    }

    void flushDueLogs() {
        long nowMs = clock.getAsLong();
        for (Partition partition : partitions.get()) {
            Log log = partition.log();
            if (!log.isClosed()) {
                log.maybeFlush(nowMs);
            }
        }
    }

    /**
     * Stops the schedule, letting a running pass finish: an interrupt would close the file channels it is
     * using, so the thread is never interrupted.
     */
    @Override
    public void close() {
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("log maintenance still running after 30 s; closing anyway");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
