package io.kraft.broker.replica;

import io.kraft.storage.MetaProperties;
import io.kraft.storage.PreviousShutdown;
import io.kraft.storage.log.CorruptCheckpointException;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.LogDirFailureListener;
import io.kraft.storage.log.LogManager;
import io.kraft.storage.log.LogStorageException;
import io.kraft.storage.log.OffsetCheckpointFile;
import io.kraft.storage.log.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's log directories ({@code log.dirs}): one storage {@link LogManager} each, the placement of
 * new partitions on the directory holding the fewest logs, and each directory's high watermark checkpoint
 * ({@code replication-offset-checkpoint}) and log cleaner checkpoint ({@code cleaner-offset-checkpoint}: where the
 * next compaction pass of each compacted log starts, so a restart does not recompact from the start).
 *
 * <p>Each directory has the id its {@code meta.properties} gives it ({@code directory.id}, KIP-858). A directory goes
 * offline when an I/O error fails it ({@link #takeOffline}), or at open when it cannot be loaded while another can;
 * from then on it holds no logs here, takes no new ones and is neither checkpointed nor closed cleanly, so its next
 * open recovers it as after a crash.
 */
final class LogDirectories implements AutoCloseable {
    static final String HIGH_WATERMARK_CHECKPOINT = "replication-offset-checkpoint";
    static final String CLEANER_CHECKPOINT = "cleaner-offset-checkpoint";
    private static final Logger LOG = LoggerFactory.getLogger(LogDirectories.class);

    /** Every directory's id, in log.dirs order, whether it opened or not. */
    private final Map<Path, UUID> directoryIds;
    /** Directories that failed (or could not be opened), with their ids. */
    private final Map<Path, UUID> offline = new ConcurrentHashMap<>();
    /** The directories that opened, in log.dirs order; one that failed later stays here, closed. */
    private final List<LogManager> managers;
    /** Hears a directory's failure on the files this class writes itself (the checkpoints). */
    private final LogDirFailureListener failures;
    private final List<OffsetCheckpointFile> highWatermarkFiles;
    private final List<OffsetCheckpointFile> cleanerFiles;
    /** Entries exist only while their log does: a new log of the same name must be compacted from its start. */
    private final Map<TopicPartition, Long> cleanerOffsets = new HashMap<>();
    /** Set when the broker stops as a crash would (tests' kill): nothing more is written. */
    private volatile boolean leaveForRecovery;

    private LogDirectories(Map<Path, UUID> directoryIds, List<LogManager> managers, Map<Path, UUID> failedAtOpen,
                           LogDirFailureListener failures) {
        this.directoryIds = directoryIds;
        this.failures = failures;
        this.managers = managers;
        this.offline.putAll(failedAtOpen);
        this.highWatermarkFiles = checkpointFiles(managers, HIGH_WATERMARK_CHECKPOINT);
        this.cleanerFiles = checkpointFiles(managers, CLEANER_CHECKPOINT);
        Map<TopicPartition, Long> logs = new HashMap<>();
        logs().keySet().forEach(tp -> logs.put(tp, 0L));
        readAll(cleanerFiles, "log cleaner").forEach((tp, offset) -> {
            if (logs.containsKey(tp)) {
                cleanerOffsets.put(tp, offset);
            }
        });
    }

    private static List<OffsetCheckpointFile> checkpointFiles(List<LogManager> managers, String name) {
        return managers.stream().map(m -> new OffsetCheckpointFile(m.logDir().resolve(name))).toList();
    }

    /** Opens every directory's logs (recovering them after an unclean stop); failures are only logged. */
    static LogDirectories open(List<Path> dirs, Function<TopicPartition, LogConfig> configs) {
        return open(dirs, configs, (dir, reason) -> LOG.error("log directory {} failed: {}", dir, reason));
    }

    /**
     * Opens every directory's logs (recovering them after an unclean stop). A directory that cannot be loaded for an
     * I/O error is offline from the start if another one opens; with none left the broker cannot start.
     *
     * @param failures hears each directory that fails once open (it must not block)
     */
    static LogDirectories open(List<Path> dirs, Function<TopicPartition, LogConfig> configs,
                               LogDirFailureListener failures) {
        Map<Path, UUID> ids = new LinkedHashMap<>();
        Map<Path, UUID> failedAtOpen = new LinkedHashMap<>();
        List<LogManager> opened = new ArrayList<>();
        RuntimeException firstFailure = null;
        try {
            for (Path dir : dirs) {
                UUID id = readDirectoryId(dir);
                ids.put(dir, id);
                try {
                    opened.add(LogManager.open(dir, configs, failures));
                } catch (LogStorageException | UncheckedIOException e) {
                    if (!(e.getCause() instanceof IOException) || dirs.size() == 1) {
                        throw e;
                    }
                    LOG.error("Log directory {} (id {}) is offline: it cannot be loaded: {}", dir, MetaProperties.toKafkaUuid(id),
                            e.getMessage());
                    failedAtOpen.put(dir, id);
                    firstFailure = firstFailure == null ? e : firstFailure;
                }
            }
            if (opened.isEmpty() && firstFailure != null) {
                throw firstFailure;
            }
        } catch (RuntimeException e) {
            for (LogManager manager : opened) {
                try {
                    manager.close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        LogDirectories directories = new LogDirectories(ids, List.copyOf(opened), failedAtOpen, failures);
        directories.dropDuplicateLogs();
        return directories;
    }

    /**
     * A crash between the two renames that end a move between directories (KIP-113) leaves the partition's log in both,
     * with the same records (the partition's writers were held off): the longer one stays (on a tie, the first in
     * log.dirs order), the other is deleted.
     */
    private void dropDuplicateLogs() {
        Map<TopicPartition, LogManager> kept = new HashMap<>();
        for (LogManager manager : online()) {
            for (Map.Entry<TopicPartition, Log> entry : manager.logs().entrySet()) {
                TopicPartition tp = entry.getKey();
                LogManager other = kept.putIfAbsent(tp, manager);
                if (other == null) {
                    continue;
                }
                LogManager drop = entry.getValue().logEndOffset() > other.log(tp).map(Log::logEndOffset).orElse(-1L)
                        ? other : manager;
                kept.put(tp, drop == other ? manager : other);
                LOG.warn("Log of {} found in both {} and {} (a move between log directories was interrupted): "
                        + "deleting the copy in {}", tp, other.logDir(), manager.logDir(), drop.logDir());
                drop.deleteLog(tp);
            }
        }
    }

    /**
     * The directory's id from its meta.properties; a directory without one (tests and tools that never formatted it)
     * gets an id derived from its path, stable across restarts.
     */
    private static UUID readDirectoryId(Path dir) {
        try {
            Optional<MetaProperties> identity = MetaProperties.read(dir);
            if (identity.isPresent()) {
                return identity.get().directoryUuid();
            }
        } catch (RuntimeException e) {
            LOG.warn("Cannot read the identity of log directory {}: {}", dir, e.getMessage());
        }
        return UUID.nameUUIDFromBytes(dir.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The directories that are online, in log.dirs order. */
    private List<LogManager> online() {
        return managers.stream().filter(m -> !offline.containsKey(m.logDir())).toList();
    }

    Optional<Log> log(TopicPartition tp) {
        return managerOf(tp).flatMap(manager -> manager.log(tp));
    }

    private Optional<LogManager> managerOf(TopicPartition tp) {
        // A completed move leaves the log in one directory only; the other copy of a crash mid-swap is ignored.
        for (LogManager manager : online()) {
            if (manager.log(tp).isPresent()) {
                return Optional.of(manager);
            }
        }
        return Optional.empty();
    }

    /**
     * The partition's log, created on the online directory with the fewest logs when it has none.
     *
     * @throws LogStorageException if every directory is offline
     */
    synchronized Log getOrCreate(TopicPartition tp) {
        Optional<Log> existing = log(tp);
        if (existing.isPresent()) {
            return existing.get();
        }
        LogManager emptiest = online().stream()
                .min(Comparator.comparingInt(m -> m.logs().size()))
                .orElseThrow(() -> new LogStorageException("cannot create the log of " + tp
                        + ": every log directory is offline"));
        return emptiest.getOrCreateLog(tp);
    }

    /**
     * The partition's log, created on {@code preferred} (an AlterReplicaLogDirs wish, KIP-113) when it has none and
     * that directory is online, else as {@link #getOrCreate(TopicPartition)} places it.
     */
    synchronized Log getOrCreate(TopicPartition tp, Optional<Path> preferred) {
        Optional<LogManager> wanted = preferred.flatMap(this::onlineManager);
        if (wanted.isPresent() && log(tp).isEmpty()) {
            return wanted.get().getOrCreateLog(tp);
        }
        return getOrCreate(tp);
    }

    /** The online directory {@code dir}, if it is one of log.dirs. */
    Optional<LogManager> onlineManager(Path dir) {
        return online().stream().filter(m -> m.logDir().equals(dir)).findFirst();
    }

    /** The configured log directory {@code dir} names (as given, or absolute), if any. */
    Optional<Path> configuredDirectory(Path dir) {
        Path wanted = dir.toAbsolutePath().normalize();
        return directoryIds.keySet().stream().filter(d -> d.toAbsolutePath().normalize().equals(wanted)).findFirst();
    }

    /** Whether {@code dir} is a configured directory that has not failed. */
    boolean isOnline(Path dir) {
        return onlineManager(dir).isPresent();
    }

    /** The partition's future log (a move in progress, KIP-113) and the directory it is in, if any. */
    Optional<Map.Entry<Path, Log>> futureLog(TopicPartition tp) {
        for (LogManager manager : online()) {
            Optional<Log> future = manager.futureLog(tp);
            if (future.isPresent()) {
                return Optional.of(Map.entry(manager.logDir(), future.get()));
            }
        }
        return Optional.empty();
    }

    /** Every future log of the online directories (moves in progress), by partition. */
    Map<TopicPartition, Log> futureLogs() {
        Map<TopicPartition, Log> all = new HashMap<>();
        for (LogManager manager : online()) {
            manager.futureLogs().forEach(all::putIfAbsent);
        }
        return all;
    }

    /** The future log of the partition in {@code dir}, created empty if absent. */
    Log getOrCreateFutureLog(TopicPartition tp, Path dir) {
        return onlineManager(dir).orElseThrow(() -> new LogStorageException("cannot move " + tp + " to " + dir
                + ": the log directory is offline")).getOrCreateFutureLog(tp);
    }

    /** Deletes the partition's future log wherever it is (an abandoned move); a no-op without one. */
    synchronized void deleteFutureLog(TopicPartition tp) {
        for (LogManager manager : online()) {
            manager.deleteFutureLog(tp);
        }
    }

    /**
     * Ends a move: the future log in {@code dir} becomes the partition's log and the one it replaces is deleted after
     * {@code deleteDelayMs}. The caller holds off every writer and reader-to-be of the partition.
     *
     * @return the partition's log in {@code dir}
     */
    synchronized Log completeMove(TopicPartition tp, Path dir, long deleteDelayMs) {
        Optional<LogManager> source = managerOf(tp);
        // Promoted first: a crash between the two steps leaves two copies of the log, never none.
        Log promoted = onlineManager(dir).orElseThrow(() -> new LogStorageException("cannot move " + tp + " to " + dir
                + ": the log directory is offline")).promoteFutureLog(tp);
        source.filter(m -> !m.logDir().equals(dir)).ifPresent(m -> m.deleteReplacedLog(tp, deleteDelayMs));
        if (cleanerOffsets.containsKey(tp)) {
            writePerDirectory(cleanerFiles, cleanerOffsets);
        }
        return promoted;
    }

    /** The log directory that holds {@code log}. */
    Path directoryOf(Log log) {
        return log.dir().getParent();
    }

    /** Reports an I/O error on files of {@code log}'s directory written outside the log (the cleaner's segments). */
    void reportIoError(Log log, LogStorageException e) {
        if (e.isDeviceFailure()) {
            failures.logDirFailed(directoryOf(log), e.getMessage());
        }
    }

    /** The id of a configured log directory. */
    UUID directoryId(Path dir) {
        UUID id = directoryIds.get(dir);
        if (id == null) {
            throw new IllegalArgumentException(dir + " is not one of the log directories " + directoryIds.keySet());
        }
        return id;
    }

    /**
     * Takes a failed directory offline: its files are released without another write (see
     * {@link LogManager#closeAfterFailure()}). Returns false if it already was, or is not one of these directories.
     */
    synchronized boolean takeOfflineIfKnown(Path dir) {
        UUID id = directoryIds.get(dir);
        if (id == null || offline.putIfAbsent(dir, id) != null) {
            return false;
        }
        for (LogManager manager : managers) {
            if (manager.logDir().equals(dir)) {
                manager.closeAfterFailure();
            }
        }
        return true;
    }

    /** The ids of the online directories, in log.dirs order. */
    List<UUID> onlineDirectoryIds() {
        return online().stream().map(m -> directoryIds.get(m.logDir())).toList();
    }

    /** The offline directories and their ids, in log.dirs order. */
    Map<Path, UUID> offlineDirectories() {
        Map<Path, UUID> ordered = new LinkedHashMap<>();
        directoryIds.forEach((dir, id) -> {
            if (offline.containsKey(dir)) {
                ordered.put(dir, id);
            }
        });
        return ordered;
    }

    /** Deletes the partition's log and its directory, if it has one, and its cleaner checkpoint entry. */
    synchronized void delete(TopicPartition tp) {
        managerOf(tp).ifPresent(manager -> manager.deleteLog(tp));
        if (cleanerOffsets.remove(tp) != null) {
            writePerDirectory(cleanerFiles, cleanerOffsets);
        }
    }

    /** Where the next cleaning pass of the partition's log starts, 0 if it was never cleaned. */
    synchronized long cleanerOffset(TopicPartition tp) {
        return cleanerOffsets.getOrDefault(tp, 0L);
    }

    /** Records (durably) where the next cleaning pass of the partition's log starts. */
    synchronized void checkpointCleanerOffset(TopicPartition tp, long firstDirtyOffset) {
        if (log(tp).isEmpty()) {
            return; // deleted meanwhile
        }
        Long previous = cleanerOffsets.put(tp, firstDirtyOffset);
        if (previous == null || previous != firstDirtyOffset) {
            writePerDirectory(cleanerFiles, cleanerOffsets);
        }
    }

    /** How the previous run left the directories: unclean if it left any so, new only if all are new. */
    PreviousShutdown previousShutdown() {
        return managers.stream().map(LogManager::previousShutdown).reduce(PreviousShutdown.NONE, PreviousShutdown::and);
    }

    /** Every open log of the online directories. */
    Map<TopicPartition, Log> logs() {
        Map<TopicPartition, Log> all = new HashMap<>();
        for (LogManager manager : online()) {
            manager.logs().forEach(all::putIfAbsent);
        }
        return all;
    }

    /**
     * Every configured directory, in log.dirs order: an online one with its logs and free space (the offset lag of a
     * log is how far its end is below {@code highWatermark}, which answers -1 for a partition with none), an offline
     * one with nothing.
     */
    List<LogDirDescription> describe(ToLongFunction<TopicPartition> highWatermark) {
        List<LogDirDescription> described = new ArrayList<>();
        for (Path dir : directoryIds.keySet()) {
            Optional<LogManager> manager = offline.containsKey(dir) ? Optional.empty()
                    : managers.stream().filter(m -> m.logDir().equals(dir)).findFirst();
            if (manager.isEmpty()) {
                described.add(new LogDirDescription(dir, false, -1, -1, Map.of()));
                continue;
            }
            Map<TopicPartition, LogDirDescription.Replica> replicas = new HashMap<>();
            manager.get().logs().forEach((tp, log) -> replicas.put(tp, new LogDirDescription.Replica(
                    log.sizeInBytes(), Math.max(0, highWatermark.applyAsLong(tp) - log.logEndOffset()), false)));
            // A future log's lag is how far it is behind the log it copies (KIP-113).
            manager.get().futureLogs().forEach((tp, future) -> replicas.put(tp, new LogDirDescription.Replica(
                    future.sizeInBytes(), Math.max(0, log(tp).map(Log::logEndOffset).orElse(0L)
                    - future.logEndOffset()), true)));
            long total = -1;
            long usable = -1;
            try {
                FileStore store = Files.getFileStore(dir);
                total = store.getTotalSpace();
                usable = store.getUsableSpace();
            } catch (IOException e) {
                LOG.debug("Cannot read the space of log directory {}: {}", dir, e.toString());
            }
            described.add(new LogDirDescription(dir, true, total, usable, replicas));
        }
        return described;
    }

    /** The high watermarks checkpointed in every directory; a corrupt file counts as empty. */
    Map<TopicPartition, Long> readHighWatermarks() {
        return readAll(highWatermarkFiles, "high watermark");
    }

    /** Writes each directory's file with the high watermarks of the partitions whose logs it holds. */
    void writeHighWatermarks(Map<TopicPartition, Long> highWatermarks) {
        if (leaveForRecovery) {
            return;
        }
        writePerDirectory(highWatermarkFiles, highWatermarks);
    }

    private static Map<TopicPartition, Long> readAll(List<OffsetCheckpointFile> files, String what) {
        Map<TopicPartition, Long> all = new HashMap<>();
        for (OffsetCheckpointFile file : files) {
            try {
                file.read().forEach(all::putIfAbsent);
            } catch (CorruptCheckpointException e) {
                // Both kinds are safe to lose: a high watermark is learned again, a log is compacted from its start.
                LOG.warn("ignoring corrupt {} checkpoint: {}", what, e.getMessage());
            }
        }
        return all;
    }

    /** Writes each directory's file (one per manager, in order) with the entries of the logs that directory holds. */
    private void writePerDirectory(List<OffsetCheckpointFile> files, Map<TopicPartition, Long> offsets) {
        for (int i = 0; i < managers.size(); i++) {
            if (offline.containsKey(managers.get(i).logDir())) {
                continue;
            }
            Map<TopicPartition, Long> inDir = new HashMap<>();
            for (TopicPartition tp : managers.get(i).logs().keySet()) {
                Long offset = offsets.get(tp);
                if (offset != null) {
                    inDir.put(tp, offset);
                }
            }
            try {
                files.get(i).write(inDir);
            } catch (LogStorageException e) {
                if (e.getCause() instanceof IOException) {
                    failures.logDirFailed(managers.get(i).logDir(), e.getMessage());
                }
                throw e;
            }
        }
    }

    /** Checkpoints every online directory's recovery points and log start offsets. */
    void checkpointLogs() {
        for (LogManager manager : online()) {
            manager.checkpoint();
        }
    }

    /**
     * The broker epoch the previous process stamped every directory's clean-shutdown marker with (KIP-966), or -1 when
     * a directory was not shut down cleanly, failed, or has another stamp: its replicas may lack records.
     */
    long previousBrokerEpoch() {
        long epoch = -1;
        for (LogManager manager : managers) {
            long stamp = manager.previousShutdownStamp();
            if (stamp < 0 || epoch >= 0 && stamp != epoch) {
                return -1;
            }
            epoch = stamp;
        }
        return offline.isEmpty() ? epoch : -1;
    }

    /** The broker epoch the clean-shutdown markers of this close keep (KIP-966). */
    void setBrokerEpochForShutdown(long brokerEpoch) {
        managers.forEach(manager -> manager.setShutdownStamp(brokerEpoch));
    }

    /**
     * Closes every directory: logs flushed, checkpoints written, clean-shutdown markers placed; an offline one only
     * releases its files.
     */
    @Override
    public void close() {
        if (leaveForRecovery) {
            managers.forEach(LogManager::closeAfterFailure);
            return;
        }
        RuntimeException failure = null;
        for (LogManager manager : managers) {
            try {
                manager.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Makes {@link #close()} release every directory's files without writing anything, as a crash leaves them. */
    public void leaveForRecovery() {
        leaveForRecovery = true;
    }
}
