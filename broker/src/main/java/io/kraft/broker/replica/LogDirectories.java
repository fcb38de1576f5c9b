package io.kraft.broker.replica;

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
 * ({@code replication-offset-checkpoint}).
 */
final class LogDirectories implements AutoCloseable {
    static final String HIGH_WATERMARK_CHECKPOINT = "replication-offset-checkpoint";
    private static final Logger LOG = LoggerFactory.getLogger(LogDirectories.class);

    private final List<LogManager> managers;
    private final List<OffsetCheckpointFile> highWatermarkFiles;

    private LogDirectories(List<LogManager> managers) {
        this.managers = managers;
        this.highWatermarkFiles = managers.stream()
                .map(m -> new OffsetCheckpointFile(m.logDir().resolve(HIGH_WATERMARK_CHECKPOINT)))
                .toList();
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

    /** Deletes the partition's log and its directory, if it has one. */
    synchronized void delete(TopicPartition tp) {
        managerOf(tp).ifPresent(manager -> manager.deleteLog(tp));
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
        Map<TopicPartition, Long> all = new HashMap<>();
        for (OffsetCheckpointFile file : highWatermarkFiles) {
            try {
                file.read().forEach(all::putIfAbsent);
            } catch (CorruptCheckpointException e) {
                LOG.warn("ignoring corrupt high watermark checkpoint: {}", e.getMessage());
            }
        }
        return all;
    }

    /** Writes each directory's file with the high watermarks of the partitions whose logs it holds. */
    void writeHighWatermarks(Map<TopicPartition, Long> highWatermarks) {
        for (int i = 0; i < managers.size(); i++) {
            Map<TopicPartition, Long> inDir = new HashMap<>();
            for (TopicPartition tp : managers.get(i).logs().keySet()) {
                Long highWatermark = highWatermarks.get(tp);
                if (highWatermark != null) {
                    inDir.put(tp, highWatermark);
                }
            }
            highWatermarkFiles.get(i).write(inDir);
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
