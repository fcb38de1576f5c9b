package io.kraft.storage.log;

import io.kraft.storage.PreviousShutdown;
import io.kraft.storage.io.DurableFiles;
import io.kraft.storage.io.FaultInjection;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logs of one log directory: opens every {@code <topic>-<partition>} directory, persists their
 * recovery points and log start offsets in the directory's checkpoint files, and marks a clean
 * shutdown so the next open can skip re-validating segments.
 *
 * <p>A deleted log's directory is first renamed {@code <topic>-<partition>.<uuid>-delete} (Kafka's
 * pattern), so its name is free for a new log at once and a crash mid-delete leaves nothing that
 * loads as a log; such directories are removed in the background and on open.
 *
 * <p>A partition moving here from another log directory of the same broker (KIP-113) has a future log in
 * {@code <topic>-<partition>.<uuid>-future} while it is copied; {@link #promoteFutureLog} makes it the partition's log.
 * Future logs are reopened on open, so a move interrupted by a restart resumes from what was copied.
 *
 * <p>The metadata log's directory ({@link TopicPartition#CLUSTER_METADATA}) may sit in a log directory, when
 * metadata.log.dir is unset or names one: it is never opened, created or deleted here.
 *
 * <p>An I/O error on any file of the directory (a log's segment, a checkpoint, a rename) marks the whole directory
 * failed, as Kafka's JBOD model does (KIP-112): the {@link LogDirFailureListener} hears it once, and the owner then
 * calls {@link #closeAfterFailure()}, which releases every file without writing another byte. A failed directory is
 * never checkpointed or marked clean, so its next open re-validates every log past its recovery point.
 */
public final class LogManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);
    public static final String CLEAN_SHUTDOWN_FILE = ".kraft_cleanshutdown";
    public static final String RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint";
    public static final String LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint";
    /** Suffix of a deleted log's renamed directory, removed in the background. */
    public static final String DELETE_DIR_SUFFIX = "-delete";
    /** Suffix of a future log's directory: a copy of a log moving here from another log directory (KIP-113). */
    public static final String FUTURE_DIR_SUFFIX = "-future";

    private final Path logDir;
    private final Function<TopicPartition, LogConfig> configs;
    private final OffsetCheckpointFile recoveryPoints;
    private final OffsetCheckpointFile logStartOffsets;
    private final Map<TopicPartition, Log> logs = new ConcurrentHashMap<>();
    /** Logs being copied here from another directory of the same broker, not yet the partitions' logs. */
    private final Map<TopicPartition, Log> futureLogs = new ConcurrentHashMap<>();
    private final LogDirFailureListener failureListener;
    private final AtomicBoolean failed = new AtomicBoolean();
    private final Object lifecycleLock = new Object();
    /** fsyncs segments rolled by appends off the produce path, one directory's worth at a time. */
    private final ExecutorService rollFlusher;
    /** Removes the files of deleted logs, off the caller's thread. */
    private final ScheduledExecutorService deleter;
    private boolean closed;
    private PreviousShutdown previousShutdown;
    /** The number the previous clean shutdown left in its marker, or -1 (none, or not a clean shutdown). */
    private long previousShutdownStamp = -1;
    /** The number the next clean shutdown leaves in its marker (the owner's, e.g. a broker epoch), or -1 for none. */
    private volatile long shutdownStamp = -1;

    private LogManager(Path logDir, Function<TopicPartition, LogConfig> configs, LogDirFailureListener failureListener) {
        this.logDir = logDir;
        this.configs = configs;
        this.failureListener = failureListener;
        this.recoveryPoints = new OffsetCheckpointFile(logDir.resolve(RECOVERY_POINT_CHECKPOINT));
        this.logStartOffsets = new OffsetCheckpointFile(logDir.resolve(LOG_START_OFFSET_CHECKPOINT));
        this.rollFlusher = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kraft-log-flusher-" + logDir.getFileName());
            thread.setDaemon(true);
            return thread;
        });
        ScheduledThreadPoolExecutor deleterPool = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "kraft-log-deleter-" + logDir.getFileName());
            thread.setDaemon(true);
            return thread;
        });
        // A replaced log still waiting out its delay at shutdown is removed by the next open instead.
        deleterPool.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.deleter = deleterPool;
    }

    /**
     * Opens every partition log under {@code logDir}. With the clean-shutdown marker present only
     * corrupt indexes are rebuilt; without it every segment past the checkpointed recovery point is
     * re-validated. The marker is removed once all logs are open.
     *
     * @param configs the settings of each partition (topic overrides over broker defaults)
     */
    public static LogManager open(Path logDir, Function<TopicPartition, LogConfig> configs) {
        return open(logDir, configs, (dir, reason) -> { });
    }

    /**
     * As {@link #open(Path, Function)}, with the listener that hears the first I/O error on the directory's files
     * once it is open.
     */
    public static LogManager open(Path logDir, Function<TopicPartition, LogConfig> configs,
                                  LogDirFailureListener failureListener) {
        LogManager manager = new LogManager(logDir, configs, failureListener);
        manager.loadLogs();
        return manager;
    }

    private void loadLogs() {
        long startNanos = System.nanoTime();
        Path marker = logDir.resolve(CLEAN_SHUTDOWN_FILE);
        try {
            Files.createDirectories(logDir);
            Files.deleteIfExists(logDir.resolve(RECOVERY_POINT_CHECKPOINT + LogFileNames.TEMP_SUFFIX));
            Files.deleteIfExists(logDir.resolve(LOG_START_OFFSET_CHECKPOINT + LogFileNames.TEMP_SUFFIX));
        } catch (IOException e) {
            throw new LogStorageException("cannot prepare log directory " + logDir, e);
        }
        boolean cleanShutdown = Files.exists(marker);
        previousShutdownStamp = cleanShutdown ? readStamp(marker) : -1;
        boolean ranBefore = cleanShutdown || Files.exists(logDir.resolve(RECOVERY_POINT_CHECKPOINT))
                || Files.exists(logDir.resolve(LOG_START_OFFSET_CHECKPOINT));
        Map<TopicPartition, Long> recovery = readOrEmpty(recoveryPoints);
        Map<TopicPartition, Long> starts = readOrEmpty(logStartOffsets);
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(logDir, Files::isDirectory)) {
            for (Path partitionDir : stream) {
                if (isDeletedLogDirectory(partitionDir)) {
                    LOG.info("removing {}, a log deleted before the last shutdown", partitionDir);
                    deleteRecursively(partitionDir);
                    ranBefore = true;
                    continue;
                }
                Optional<TopicPartition> future = futureLogPartition(partitionDir);
                if (future.isPresent()) {
                    // Not in the checkpoints (they hold the partitions' logs): recovered from its start.
                    futureLogs.put(future.get(), Log.open(partitionDir, configs.apply(future.get()), 0, 0, false,
                            rollFlusher, this::ioFailed));
                    LOG.info("loaded future log {} of {}: its move to {} resumes", partitionDir, future.get(), logDir);
                    continue;
                }
                Optional<TopicPartition> tp = TopicPartition.fromDirectoryName(partitionDir.getFileName().toString());
                if (tp.isEmpty() || tp.get().equals(TopicPartition.CLUSTER_METADATA)) {
                    continue;
                }
                Log log = Log.open(partitionDir, configs.apply(tp.get()), recovery.getOrDefault(tp.get(), 0L),
                        starts.getOrDefault(tp.get(), 0L), cleanShutdown, rollFlusher, this::ioFailed);
                logs.put(tp.get(), log);
            }
        } catch (IOException e) {
            closeLogsQuietly();
            throw new LogStorageException("cannot list log directory " + logDir, e);
        } catch (RuntimeException e) {
            closeLogsQuietly();
            throw e;
        }
        try {
            Files.deleteIfExists(marker);
            DurableFiles.fsyncDirectory(logDir);
        } catch (IOException e) {
            throw new LogStorageException("cannot remove clean shutdown marker " + marker, e);
        }
        if (!logs.keySet().containsAll(recovery.keySet()) || !logs.keySet().containsAll(starts.keySet())) {
            // Entries of logs deleted before a crash must not be applied to a new log of the same name.
            checkpoint();
        }
        previousShutdown = cleanShutdown ? PreviousShutdown.CLEAN
                : ranBefore || !logs.isEmpty() ? PreviousShutdown.UNCLEAN : PreviousShutdown.NONE;
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        switch (previousShutdown) {
            case NONE -> LOG.info("Log directory {} is new: no logs to load", logDir);
            case CLEAN -> LOG.info("Loaded {} logs from {} after a clean shutdown in {} ms", logs.size(), logDir,
                    elapsedMs);
            case UNCLEAN -> {
                if (logs.isEmpty()) {
                    LOG.info("Log directory {} holds no logs to recover after an unclean shutdown", logDir);
                } else {
                    LOG.info("Recovered {} logs from {} after an unclean shutdown in {} ms: segments past each log's "
                            + "recovery point were re-validated", logs.size(), logDir, elapsedMs);
                }
            }
        }
    }

    private static long readStamp(Path marker) {
        try {
            String text = Files.readString(marker).strip();
            return text.isEmpty() ? -1 : Long.parseLong(text);
        } catch (IOException | NumberFormatException e) {
            return -1; // an unreadable stamp says nothing: the directory still counts as cleanly shut down
        }
    }

    /**
     * The number the previous clean shutdown stamped its marker with ({@link #setShutdownStamp}), or -1 if there was
     * no clean shutdown or no stamp.
     */
    public long previousShutdownStamp() {
        return previousShutdownStamp;
    }

    /** A number for the clean-shutdown marker to keep, read back by the next open's {@link #previousShutdownStamp}. */
    public void setShutdownStamp(long stamp) {
        this.shutdownStamp = stamp;
    }

    /** How the previous run left this directory, as opening it found. */
    public PreviousShutdown previousShutdown() {
        return previousShutdown;
    }

    private Map<TopicPartition, Long> readOrEmpty(OffsetCheckpointFile file) {
        try {
            return file.read();
        } catch (CorruptCheckpointException e) {
            // Without it every log recovers from its start and keeps its first segment as log start: safe.
            LOG.warn("ignoring corrupt checkpoint: {}", e.getMessage());
            return Map.of();
        }
    }

    private void closeLogsQuietly() {
        rollFlusher.shutdownNow();
        deleter.shutdownNow();
        for (Log log : allLogs()) {
            try {
                log.close();
            } catch (RuntimeException ignored) {
                // reporting the load failure matters more
            }
        }
        logs.clear();
        futureLogs.clear();
    }

    public Path logDir() {
        return logDir;
    }

    /** Whether an I/O error marked this directory failed. */
    public boolean isFailed() {
        return failed.get();
    }

    /** Marks the directory failed on an I/O error and tells the listener, once; does not block. */
    private void ioFailed(LogStorageException e) {
        if (e.isDeviceFailure() && failed.compareAndSet(false, true)) {
            failureListener.logDirFailed(logDir, e.getMessage());
        }
    }

    /** Runs a step on the directory's files, reporting an I/O error before it is thrown. */
    private <T> T reportingIoErrors(java.util.function.Supplier<T> step) {
        try {
            return step.get();
        } catch (LogStorageException e) {
            ioFailed(e);
            throw e;
        }
    }

    public Optional<Log> log(TopicPartition tp) {
        return Optional.ofNullable(logs.get(tp));
    }

    /** A snapshot of the open logs. */
    public Map<TopicPartition, Log> logs() {
        return Map.copyOf(logs);
    }

    /**
     * The partition's log, created empty with its configured settings if absent.
     *
     * @throws IllegalArgumentException for {@link TopicPartition#CLUSTER_METADATA}, whose directory is the metadata log's
     */
    public Log getOrCreateLog(TopicPartition tp) {
        if (tp.equals(TopicPartition.CLUSTER_METADATA)) {
            throw new IllegalArgumentException(tp + " is the directory of the metadata log, not a partition log: "
                    + "no log of the topic " + tp.topic() + " can be created in " + logDir);
        }
        synchronized (lifecycleLock) {
            ensureOpen();
            return reportingIoErrors(() -> logs.computeIfAbsent(tp, p -> Log.open(logDir.resolve(p.directoryName()),
                    configs.apply(p), 0, 0, false, rollFlusher, this::ioFailed)));
        }
    }

    /**
     * Deletes a partition's log: closes it (without flushing: its data is going), renames its
     * directory to {@code <topic>-<partition>.<uuid>-delete}, drops it from the checkpoints and
     * removes the renamed directory in the background. A crash after the rename leaves a directory
     * the next open removes.
     *
     * @return false if this directory holds no log for the partition
     */
    public boolean deleteLog(TopicPartition tp) {
        return retire(logs, tp, 0);
    }

    /**
     * Deletes a partition's log once another directory's copy replaced it: renamed at once, its files stay open for
     * readers already reading them until {@code delayMs} (file.delete.delay.ms) passed, then go.
     *
     * @return false if this directory holds no log for the partition
     */
    public boolean deleteReplacedLog(TopicPartition tp, long delayMs) {
        return retire(logs, tp, delayMs);
    }

    /** Deletes the future log of a partition whose move here was abandoned; false if there is none. */
    public boolean deleteFutureLog(TopicPartition tp) {
        return retire(futureLogs, tp, 0);
    }

    private boolean retire(Map<TopicPartition, Log> from, TopicPartition tp, long delayMs) {
        Path renamed;
        Log log;
        synchronized (lifecycleLock) {
            ensureOpen();
            log = from.remove(tp);
            if (log == null) {
                return false;
            }
            if (delayMs == 0) {
                log.closeHandlers();
            }
            renamed = logDir.resolve(tp.directoryName() + "." + UUID.randomUUID().toString().replace("-", "")
                    + DELETE_DIR_SUFFIX);
            try {
                DurableFiles.atomicMove(log.dir(), renamed);
            } catch (IOException e) {
                throw reported(new LogStorageException("cannot rename deleted log " + log.dir() + " to " + renamed, e));
            }
            try {
                DurableFiles.fsyncDirectory(logDir);
            } catch (IOException e) {
                throw reported(new LogStorageException("cannot make the rename of deleted log " + renamed
                        + " durable", e));
            }
            checkpoint();
        }
        LOG.info("deleted log {}; removing its files from {}", tp, renamed);
        deleter.schedule(() -> {
            try {
                log.closeHandlers();
                deleteRecursively(renamed);
            } catch (LogStorageException e) {
                LOG.warn("could not remove deleted log directory {}: {}", renamed, e.getMessage());
                ioFailed(e);
            } catch (RuntimeException e) {
                LOG.warn("could not remove deleted log directory {} (the next open retries): {}", renamed, e.toString());
            }
        }, delayMs, TimeUnit.MILLISECONDS);
        return true;
    }

    /** The future log of a partition moving here (KIP-113), if any. */
    public Optional<Log> futureLog(TopicPartition tp) {
        return Optional.ofNullable(futureLogs.get(tp));
    }

    /** A snapshot of the future logs: partitions moving here from another log directory. */
    public Map<TopicPartition, Log> futureLogs() {
        return Map.copyOf(futureLogs);
    }

    /**
     * The future log of a partition about to move here, in {@code <topic>-<partition>.<uuid>-future} (Kafka's
     * pattern): created empty if absent, the existing one otherwise.
     */
    public Log getOrCreateFutureLog(TopicPartition tp) {
        if (tp.equals(TopicPartition.CLUSTER_METADATA)) {
            throw new IllegalArgumentException(tp + " is the metadata log's directory: it cannot move");
        }
        synchronized (lifecycleLock) {
            ensureOpen();
            return reportingIoErrors(() -> futureLogs.computeIfAbsent(tp, p -> Log.open(logDir.resolve(
                    p.directoryName() + "." + UUID.randomUUID().toString().replace("-", "") + FUTURE_DIR_SUFFIX),
                    configs.apply(p), 0, 0, false, rollFlusher, this::ioFailed)));
        }
    }

    /**
     * Makes the future log the partition's log here: closes it (flushed), renames its directory to
     * {@code <topic>-<partition>} and reopens it. The caller holds off every writer of the partition meanwhile.
     *
     * @return the partition's log, reopened from the renamed directory
     * @throws IllegalStateException if there is no future log for the partition, or already a log
     */
    public Log promoteFutureLog(TopicPartition tp) {
        synchronized (lifecycleLock) {
            ensureOpen();
            Log future = futureLogs.get(tp);
            if (future == null || logs.containsKey(tp)) {
                throw new IllegalStateException("cannot promote the future log of " + tp + " in " + logDir
                        + (future == null ? ": there is none" : ": the directory already holds its log"));
            }
            return reportingIoErrors(() -> {
                future.close();
                futureLogs.remove(tp);
                Path target = logDir.resolve(tp.directoryName());
                try {
                    DurableFiles.atomicMove(future.dir(), target);
                    DurableFiles.fsyncDirectory(logDir);
                } catch (IOException e) {
                    throw new LogStorageException("cannot rename future log " + future.dir() + " to " + target, e);
                }
                Log log = Log.open(target, configs.apply(tp), future.logEndOffset(), future.logStartOffset(), true,
                        rollFlusher, this::ioFailed);
                logs.put(tp, log);
                checkpoint();
                return log;
            });
        }
    }

    /** {@code <topic>-<partition>.<32 hex digits>-future}: the partition whose future log the directory is. */
    static Optional<TopicPartition> futureLogPartition(Path dir) {
        return suffixedLogPartition(dir, FUTURE_DIR_SUFFIX);
    }

    private List<Log> allLogs() {
        List<Log> all = new ArrayList<>(logs.values());
        all.addAll(futureLogs.values());
        return all;
    }

    /** {@code <topic>-<partition>.<32 hex digits>-delete}: a deleted log's renamed directory. */
    static boolean isDeletedLogDirectory(Path dir) {
        return suffixedLogPartition(dir, DELETE_DIR_SUFFIX).isPresent();
    }

    /** The partition of a {@code <topic>-<partition>.<32 hex digits><suffix>} directory, else empty. */
    private static Optional<TopicPartition> suffixedLogPartition(Path dir, String suffix) {
        String name = dir.getFileName().toString();
        if (!name.endsWith(suffix)) {
            return Optional.empty();
        }
        String stem = name.substring(0, name.length() - suffix.length());
        int dot = stem.lastIndexOf('.');
        if (dot < 0 || stem.length() - dot - 1 != 32
                || !stem.substring(dot + 1).chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return Optional.empty();
        }
        return TopicPartition.fromDirectoryName(stem.substring(0, dot));
    }

    private static void deleteRecursively(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path visited, IOException e) throws IOException {
                    if (e != null && !(e instanceof NoSuchFileException)) {
                        throw e;
                    }
                    Files.deleteIfExists(visited);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            // already gone
        } catch (IOException e) {
            throw new LogStorageException("cannot delete directory " + dir, e);
        }
    }

    /** Lets queued roll flushes finish (closing the logs flushes whatever they did not reach). */
    private void stopRollFlusher() {
        rollFlusher.shutdown();
        try {
            if (!rollFlusher.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("log directory {}: roll flushes still running after 30 s; closing the logs flushes them", logDir);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Lets queued directory deletions finish; whatever is left, the next open removes. */
    private void stopDeleter() {
        deleter.shutdown();
        try {
            if (!deleter.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("log directory {}: deleted logs still being removed after 30 s; the next open finishes", logDir);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private LogStorageException reported(LogStorageException e) {
        ioFailed(e);
        return e;
    }

    /**
     * Writes every log's recovery point and log start offset to the directory's checkpoint files; a failed directory
     * is left as it is.
     */
    public void checkpoint() {
        synchronized (lifecycleLock) {
            if (failed.get()) {
                return;
            }
            Map<TopicPartition, Long> recovery = new HashMap<>();
            Map<TopicPartition, Long> starts = new HashMap<>();
            for (Map.Entry<TopicPartition, Log> entry : logs.entrySet()) {
                recovery.put(entry.getKey(), entry.getValue().recoveryPoint());
                starts.put(entry.getKey(), entry.getValue().logStartOffset());
            }
            reportingIoErrors(() -> {
                recoveryPoints.write(recovery);
                logStartOffsets.write(starts);
                return null;
            });
        }
    }

    /**
     * Releases the files of a failed directory without writing anything more (no flush, checkpoint or clean-shutdown
     * marker): the files stay as a crash would leave them, so the next open recovers every log past its recovery
     * point. Later calls, and {@link #close()}, do nothing.
     */
    public void closeAfterFailure() {
        synchronized (lifecycleLock) {
            if (closed) {
                return;
            }
            failed.set(true);
            closed = true;
            rollFlusher.shutdownNow();
            deleter.shutdownNow();
            for (Log log : allLogs()) {
                try {
                    log.closeHandlers();
                } catch (RuntimeException e) {
                    LOG.debug("closing a log of failed directory {}: {}", logDir, e.toString());
                }
            }
            logs.clear();
            futureLogs.clear();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("log manager of " + logDir + " is closed");
        }
    }

    /**
     * Flushes and closes every log, checkpoints, then writes the clean-shutdown marker; a failed directory is closed as
     * {@link #closeAfterFailure()} does.
     */
    @Override
    public void close() {
        synchronized (lifecycleLock) {
            if (closed) {
                return;
            }
            if (failed.get()) {
                closeAfterFailure();
                return;
            }
            stopRollFlusher();
            stopDeleter();
            Path marker = logDir.resolve(CLEAN_SHUTDOWN_FILE);
            try {
                for (Log log : allLogs()) {
                    log.close();
                }
                checkpoint();
                try {
                    FaultInjection.beforeWrite(marker);
                    Files.deleteIfExists(marker);
                    Files.createFile(marker);
                    if (shutdownStamp >= 0) {
                        Files.writeString(marker, Long.toString(shutdownStamp));
                        DurableFiles.fsyncFile(marker);
                    }
                    DurableFiles.fsyncDirectory(logDir);
                } catch (IOException e) {
                    throw new LogStorageException("cannot write clean shutdown marker " + marker, e);
                }
            } catch (LogStorageException e) {
                // Failing while closing: no marker, so the next open re-validates the logs.
                ioFailed(e);
                closeAfterFailure();
                throw e;
            }
            closed = true;
        }
    }
}
