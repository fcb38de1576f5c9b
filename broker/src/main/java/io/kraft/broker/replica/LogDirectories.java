package io.kraft.broker.replica;

import io.kraft.storage.PreviousShutdown;
import io.kraft.storage.log.CorruptCheckpointException;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.LogManager;
import io.kraft.storage.log.OffsetCheckpointFile;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's log directories ({@code log.dirs}): one storage {@link LogManager} each, the placement of
 * new partitions on the directory holding the fewest logs, and each directory's high watermark checkpoint
 * ({@code replication-offset-checkpoint}) and log cleaner checkpoint ({@code cleaner-offset-checkpoint}: where the
 * next compaction pass of each compacted log starts, so a restart does not recompact from the start).
 */
final class LogDirectories implements AutoCloseable {
    static final String HIGH_WATERMARK_CHECKPOINT = "replication-offset-checkpoint";
    static final String CLEANER_CHECKPOINT = "cleaner-offset-checkpoint";
    private static final Logger LOG = LoggerFactory.getLogger(LogDirectories.class);

    private final List<LogManager> managers;
    private final List<OffsetCheckpointFile> highWatermarkFiles;
    private final List<OffsetCheckpointFile> cleanerFiles;
    /** Entries exist only while their log does: a new log of the same name must be compacted from its start. */
    private final Map<TopicPartition, Long> cleanerOffsets = new HashMap<>();

    private LogDirectories(List<LogManager> managers) {
        this.managers = managers;
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

    /** Opens every directory's logs (recovering them after an unclean stop). */
    static LogDirectories open(List<Path> dirs, Function<TopicPartition, LogConfig> configs) {
        List<LogManager> opened = new ArrayList<>();
        try {
            for (Path dir : dirs) {
                opened.add(LogManager.open(dir, configs));
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
        return new LogDirectories(List.copyOf(opened));
    }

    Optional<Log> log(TopicPartition tp) {
        return managerOf(tp).flatMap(manager -> manager.log(tp));
    }

    private Optional<LogManager> managerOf(TopicPartition tp) {
        for (LogManager manager : managers) {
            if (manager.log(tp).isPresent()) {
                return Optional.of(manager);
            }
        }
        return Optional.empty();
    }

    /** The partition's log, created on the directory with the fewest logs when it has none. */
    synchronized Log getOrCreate(TopicPartition tp) {
        Optional<Log> existing = log(tp);
        if (existing.isPresent()) {
            return existing.get();
        }
        LogManager emptiest = managers.stream()
                .min(Comparator.comparingInt(m -> m.logs().size()))
                .orElseThrow();
        return emptiest.getOrCreateLog(tp);
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

    /** Every open log. */
    Map<TopicPartition, Log> logs() {
        Map<TopicPartition, Log> all = new HashMap<>();
        for (LogManager manager : managers) {
            manager.logs().forEach(all::putIfAbsent);
        }
        return all;
    }

    /** The high watermarks checkpointed in every directory; a corrupt file counts as empty. */
    Map<TopicPartition, Long> readHighWatermarks() {
        return readAll(highWatermarkFiles, "high watermark");
    }

    /** Writes each directory's file with the high watermarks of the partitions whose logs it holds. */
    void writeHighWatermarks(Map<TopicPartition, Long> highWatermarks) {
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
            Map<TopicPartition, Long> inDir = new HashMap<>();
            for (TopicPartition tp : managers.get(i).logs().keySet()) {
                Long offset = offsets.get(tp);
                if (offset != null) {
                    inDir.put(tp, offset);
                }
            }
            files.get(i).write(inDir);
        }
    }

    /** Checkpoints every directory's recovery points and log start offsets. */
    void checkpointLogs() {
        for (LogManager manager : managers) {
            manager.checkpoint();
        }
    }

    /** Closes every directory: logs flushed, checkpoints written, clean-shutdown markers placed. */
    @Override
    public void close() {
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
}
