package io.kraft.storage.log;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a partition directory into segments on open: removes leftovers of interrupted work (temp
 * files, {@code .deleted}, {@code .cleaned}), completes interrupted swaps, opens every segment,
 * rebuilds missing or corrupt indexes, and after an unclean stop re-validates every segment past the
 * recovery point, cutting the log at the first invalid byte.
 */
final class LogLoader {
    private static final Logger LOG = LoggerFactory.getLogger(LogLoader.class);

    /**
     * What {@link Log} starts from.
     *
     * @param txnIndexRebuildFrom the base offset of the first segment whose aborted-transaction index was reset
     *                            for a rebuild from the producer state, or {@code Long.MAX_VALUE}
     */
    record Loaded(TreeMap<Long, LogSegment> segments, long nextOffset, long logStartOffset, long recoveryPoint,
                  long txnIndexRebuildFrom) {
    }

    private final Path dir;
    private final LogConfig config;
    private final Set<Long> missingIndexes = new HashSet<>();
    /** Segments completed from an interrupted cleaner swap: their transaction index is rebuilt. */
    private final Set<Long> swappedIn = new HashSet<>();

    LogLoader(Path dir, LogConfig config) {
        this.dir = dir;
        this.config = config;
    }

    Loaded load(long recoveryPoint, long logStartOffset, boolean hadCleanShutdown) {
        try {
            Files.createDirectories(dir);
            removeLeftovers();
            completeSwaps();
        } catch (IOException e) {
            throw new LogStorageException("cannot prepare log directory " + dir, e);
        }
        TreeMap<Long, LogSegment> segments = new TreeMap<>();
        try {
            openSegments(segments);
            recover(segments, recoveryPoint, hadCleanShutdown);
            if (segments.isEmpty()) {
                segments.put(logStartOffset, LogSegment.create(dir, logStartOffset, config, ""));
            }
            LogSegment active = segments.lastEntry().getValue();
            long nextOffset = active.readNextOffset();
            long start = Math.max(logStartOffset, segments.firstKey());
            if (nextOffset < start) {
                // Every batch left lies below the log start (or recovery cut there): nothing remains to serve.
                LOG.info("log {} data ends at {}, below its start offset {}; starting empty at {}",
                        dir, nextOffset, start, start);
                for (LogSegment segment : segments.values()) {
                    segment.deleteFiles();
                }
                segments.clear();
                segments.put(start, LogSegment.create(dir, start, config, ""));
                active = segments.lastEntry().getValue();
                nextOffset = start;
            }
            for (LogSegment segment : segments.values()) {
                if (segment != active) {
                    segment.onBecomeInactive();
                }
            }
            active.resizeIndexes(config.maxIndexBytes());
            active.loadRollStart();
            long txnIndexRebuildFrom = Long.MAX_VALUE;
            for (LogSegment segment : segments.values()) {
                if (segment.txnIndexNeedsRebuild()) {
                    txnIndexRebuildFrom = Math.min(txnIndexRebuildFrom, segment.baseOffset());
                }
            }
            return new Loaded(segments, nextOffset, start, Math.min(Math.max(recoveryPoint, 0), nextOffset),
                    txnIndexRebuildFrom);
        } catch (RuntimeException e) {
            for (LogSegment segment : segments.values()) {
                try {
                    segment.close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /**
     * Loads the leader epoch cache of {@code dir}; a corrupt file is rebuilt from the epochs stored in every batch
     * header of {@code segments}, which the cache only summarises.
     */
    static LeaderEpochCache loadEpochCache(Path dir, Iterable<LogSegment> segments) {
        try {
            return new LeaderEpochCache(dir);
        } catch (CorruptCheckpointException e) {
            LOG.warn("rebuilding the leader epoch cache of {} from its batches: {}", dir, e.getMessage());
            try {
                Files.deleteIfExists(dir.resolve(LeaderEpochCache.FILE_NAME));
            } catch (IOException io) {
                throw new LogStorageException("cannot delete corrupt leader epoch checkpoint in " + dir, io);
            }
            LeaderEpochCache rebuilt = new LeaderEpochCache(dir);
            for (LogSegment segment : segments) {
                segment.forEachBatch(batch -> rebuilt.assign(batch.partitionLeaderEpoch(), batch.baseOffset()));
            }
            return rebuilt;
        }
    }

    private List<Path> listFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path file : stream) {
                if (Files.isRegularFile(file)) {
                    files.add(file);
                }
            }
        }
        return files;
    }

    private void removeLeftovers() throws IOException {
        for (Path file : listFiles()) {
            String name = file.getFileName().toString();
            if (name.endsWith(LogFileNames.TEMP_SUFFIX) || name.endsWith(LogFileNames.DELETED_SUFFIX)
                    || name.endsWith(LogFileNames.CLEANED_SUFFIX)) {
                Files.deleteIfExists(file);
            }
        }
    }

    /**
     * A {@code .log.swap} file is a complete replacement written before the swap began: the segments
     * it covers go, and it takes their place. Index swap files are dropped and rebuilt (the transaction index
     * from the producer state, once the log is open).
     */
    private void completeSwaps() throws IOException {
        String logSwap = LogFileNames.LOG_SUFFIX + LogFileNames.SWAP_SUFFIX;
        for (Path file : listFiles()) {
            String name = file.getFileName().toString();
            if (name.endsWith(LogFileNames.SWAP_SUFFIX) && !name.endsWith(logSwap)) {
                Files.deleteIfExists(file);
            }
        }
        for (Path file : listFiles()) {
            OptionalLong base = LogFileNames.baseOffsetOf(file.getFileName().toString(), logSwap);
            if (base.isEmpty()) {
                continue;
            }
            LogSegment swap = LogSegment.open(dir, base.getAsLong(), config, LogFileNames.SWAP_SUFFIX);
            swap.recover(config.maxIndexBytes());
            long end = swap.readNextOffset();
            for (Path other : listFiles()) {
                OptionalLong otherBase = LogFileNames.baseOffsetOf(other.getFileName().toString(),
                        LogFileNames.LOG_SUFFIX);
                if (otherBase.isPresent() && otherBase.getAsLong() >= base.getAsLong() && otherBase.getAsLong() < end) {
                    deleteSegmentFiles(otherBase.getAsLong());
                }
            }
            swap.changeFileSuffixes(LogFileNames.SWAP_SUFFIX, "");
            swap.close();
            swappedIn.add(base.getAsLong());
            LOG.info("log {} completed the interrupted swap-in of segment {}", dir, base.getAsLong());
        }
    }

    private void deleteSegmentFiles(long baseOffset) throws IOException {
        Files.deleteIfExists(LogFileNames.logFile(dir, baseOffset, ""));
        Files.deleteIfExists(LogFileNames.offsetIndexFile(dir, baseOffset, ""));
        Files.deleteIfExists(LogFileNames.timeIndexFile(dir, baseOffset, ""));
        Files.deleteIfExists(LogFileNames.txnIndexFile(dir, baseOffset, ""));
    }

    private void openSegments(TreeMap<Long, LogSegment> segments) {
        try {
            openSegmentFiles(segments);
        } catch (IOException e) {
            throw new LogStorageException("cannot list segments of " + dir, e);
        }
    }

    private void openSegmentFiles(TreeMap<Long, LogSegment> segments) throws IOException {
        List<Path> files = listFiles();
        for (Path file : files) {
            String name = file.getFileName().toString();
            OptionalLong indexBase = LogFileNames.baseOffsetOf(name, LogFileNames.INDEX_SUFFIX);
            OptionalLong timeBase = LogFileNames.baseOffsetOf(name, LogFileNames.TIME_INDEX_SUFFIX);
            OptionalLong txnBase = LogFileNames.baseOffsetOf(name, LogFileNames.TXN_INDEX_SUFFIX);
            OptionalLong base = indexBase.isPresent() ? indexBase : timeBase.isPresent() ? timeBase : txnBase;
            if (base.isPresent() && !Files.exists(LogFileNames.logFile(dir, base.getAsLong(), ""))) {
                Files.deleteIfExists(file); // an index without its log is useless
            }
        }
        for (Path file : files) {
            OptionalLong base = LogFileNames.baseOffsetOf(file.getFileName().toString(), LogFileNames.LOG_SUFFIX);
            if (base.isPresent()) {
                long b = base.getAsLong();
                if (!Files.exists(LogFileNames.offsetIndexFile(dir, b, ""))
                        || !Files.exists(LogFileNames.timeIndexFile(dir, b, ""))) {
                    missingIndexes.add(b);
                }
                LogSegment segment = LogSegment.open(dir, base.getAsLong(), config, "");
                segments.put(base.getAsLong(), segment);
                if (swappedIn.contains(b)) {
                    segment.resetTxnIndexForRebuild();
                }
            }
        }
    }

    private void recover(TreeMap<Long, LogSegment> segments, long recoveryPoint, boolean hadCleanShutdown) {
        List<Map.Entry<Long, LogSegment>> ordered = new ArrayList<>(segments.entrySet());
        for (int i = 0; i < ordered.size(); i++) {
            LogSegment segment = ordered.get(i).getValue();
            Long nextBase = i + 1 < ordered.size() ? ordered.get(i + 1).getKey() : null;
            boolean pastRecoveryPoint = nextBase == null || nextBase > recoveryPoint;
            String reason = null;
            if (!hadCleanShutdown && pastRecoveryPoint) {
                reason = "unclean shutdown";
            } else if (missingIndexes.contains(segment.baseOffset())) {
                reason = "missing index";
            } else {
                try {
                    segment.sanityCheck();
                } catch (CorruptIndexException e) {
                    reason = e.getMessage();
                }
            }
            if (reason == null) {
                continue;
            }
            int truncated = segment.recover(config.maxIndexBytes());
            // Its aborted transactions are found again by replaying the producer state over it (Log's open).
            segment.resetTxnIndexForRebuild();
            LOG.info("log {} recovered segment {} ({}), cut {} bytes", dir, segment.baseOffset(), reason, truncated);
            if (truncated > 0) {
                // The log is the longest valid prefix: nothing after the first bad byte survives.
                for (int j = i + 1; j < ordered.size(); j++) {
                    LogSegment later = ordered.get(j).getValue();
                    LOG.warn("log {} deletes segment {} after corruption in segment {}", dir, later.baseOffset(),
                            segment.baseOffset());
                    later.deleteFiles();
                    segments.remove(later.baseOffset());
                }
                return;
            }
        }
    }
}
