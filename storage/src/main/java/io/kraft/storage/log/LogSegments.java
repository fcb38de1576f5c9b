package io.kraft.storage.log;

import io.kraft.storage.io.DurableFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The segments of one partition log by base offset, and every change to that map: roll, retire (renamed
 * {@code .deleted}, deleted after file.delete.delay.ms), truncate, restart empty, and the cleaner's crash-safe swap.
 * Each change puts new segments in before old ones leave, so a reader without the lock always finds a segment for
 * any offset below the log end it captured. Lookups take no lock; changes run under the owning log's lock.
 */
final class LogSegments {
    private final Path dir;
    private final ConcurrentSkipListMap<Long, LogSegment> segments = new ConcurrentSkipListMap<>();
    private final RetiredSegments retired = new RetiredSegments();
    /** A segment file was created or renamed since the directory was last fsynced. */
    private boolean directoryDirty;

    LogSegments(Path dir, Map<Long, LogSegment> loaded) {
        if (loaded.isEmpty()) {
            throw new IllegalArgumentException("log " + dir + " needs at least one segment");
        }
        this.dir = dir;
        this.segments.putAll(loaded);
    }

    // ---- lookups: no lock ----------------------------------------------------------------------------

    /** The segment appends go to: the last one. */
    LogSegment active() {
        return segments.lastEntry().getValue();
    }

    /** The segment based at {@code baseOffset}, or null. */
    LogSegment get(long baseOffset) {
        return segments.get(baseOffset);
    }

    boolean contains(long baseOffset) {
        return segments.containsKey(baseOffset);
    }

    long firstBaseOffset() {
        return segments.firstKey();
    }

    /** The base offset of the segment after the one based at {@code baseOffset}; null after the active segment. */
    Long nextBaseOffset(long baseOffset) {
        return segments.higherKey(baseOffset);
    }

    /** The segment that holds {@code offset} if any does: the last based at or below it, else the first. */
    Map.Entry<Long, LogSegment> holding(long offset) {
        Map.Entry<Long, LogSegment> floor = segments.floorEntry(offset);
        return floor != null ? floor : segments.firstEntry();
    }

    /**
     * The segment a read of {@code offset} returned bytes of {@code channel} from: the one holding the offset, or a
     * later one (a read skips segments with nothing at or after the offset). Null if none has that channel.
     */
    Map.Entry<Long, LogSegment> floorEntryByChannel(long offset, java.nio.channels.FileChannel channel) {
        Map.Entry<Long, LogSegment> entry = holding(offset);
        while (entry != null && entry.getValue().channel() != channel) {
            entry = segments.higherEntry(entry.getKey());
        }
        return entry;
    }

    /** The segment after the one based at {@code baseOffset}, or null. */
    Map.Entry<Long, LogSegment> after(long baseOffset) {
        return segments.higherEntry(baseOffset);
    }

    /** A live view in offset order, the active segment last; iteration sees concurrent changes weakly. */
    Collection<LogSegment> inOrder() {
        return segments.values();
    }

    /** A snapshot in offset order, the active segment last. */
    List<LogSegment> copy() {
        return List.copyOf(segments.values());
    }

    int count() {
        return segments.size();
    }

    long sizeInBytes() {
        long total = 0;
        for (LogSegment segment : segments.values()) {
            total += segment.sizeBytes();
        }
        return total;
    }

    /** Segments holding any offset in [fromOffset, toOffset). */
    List<LogSegment> between(long fromOffset, long toOffset) {
        List<LogSegment> result = new ArrayList<>();
        for (Map.Entry<Long, LogSegment> entry : segments.entrySet()) {
            if (entry.getKey() >= toOffset) {
                break;
            }
            Long nextBase = segments.higherKey(entry.getKey());
            if (nextBase != null && nextBase <= fromOffset) {
                continue;
            }
            result.add(entry.getValue());
        }
        return result;
    }

    // ---- changes: under the log's lock -----------------------------------------------------------------

    /**
     * Starts a new empty active segment at {@code baseOffset}. The old active segment becomes inactive (final time
     * index entry, trimmed indexes), or is retired when empty, as it cannot hold offsets that far. The new segment
     * goes in before anything leaves, so readers always find an active segment.
     *
     * @return the new active segment
     */
    LogSegment roll(long baseOffset, LogConfig config) {
        LogSegment previous = active();
        if (previous.sizeBytes() > 0) {
            previous.onBecomeInactive();
        }
        LogSegment next = LogSegment.create(dir, baseOffset, config, "");
        segments.put(baseOffset, next);
        directoryDirty = true;
        if (previous.sizeBytes() == 0) {
            retire(List.of(previous), config.fileDeleteDelayMs());
        }
        return next;
    }

    /** Takes segments out of the map; their files are renamed .deleted and deleted after the delay. */
    void retire(List<LogSegment> doomed, long fileDeleteDelayMs) {
        for (LogSegment segment : doomed) {
            segments.remove(segment.baseOffset(), segment);
            segment.changeFileSuffixes("", LogFileNames.DELETED_SUFFIX);
            retired.add(segment, fileDeleteDelayMs);
        }
    }

    /** Deletes the files of retired segments whose delay has passed by {@code nowMs}. */
    void deleteRetiredDue(long nowMs, long fileDeleteDelayMs) {
        retired.deleteDue(nowMs, fileDeleteDelayMs);
    }

    /**
     * Removes the batch holding {@code offset} and everything after it: segments wholly after it are retired and the
     * one holding it is truncated (a batch straddling the offset goes as a whole).
     *
     * @return the segment now last, the active one
     */
    LogSegment truncateTo(long offset, LogConfig config) {
        LogSegment target = holding(offset).getValue();
        retire(new ArrayList<>(segments.tailMap(target.baseOffset(), false).values()), config.fileDeleteDelayMs());
        target.truncateTo(offset, config.maxIndexBytes());
        return target;
    }

    /** Replaces every segment with one empty segment based at {@code offset}, durably (the directory is fsynced). */
    void restartAt(long offset, LogConfig config) {
        List<LogSegment> old = new ArrayList<>(segments.values());
        // Readers must always find a segment: the fresh one replaces any at the same base in one step.
        LogSegment sameBase = segments.get(offset);
        if (sameBase != null) {
            sameBase.changeFileSuffixes("", LogFileNames.DELETED_SUFFIX);
            old.remove(sameBase);
        }
        LogSegment fresh = LogSegment.create(dir, offset, config, "");
        segments.put(offset, fresh);
        retire(old, config.fileDeleteDelayMs());
        if (sameBase != null) {
            retired.add(sameBase, config.fileDeleteDelayMs());
        }
        fsyncDirectory();
        directoryDirty = false;
    }

    /** @throws IllegalArgumentException when one of {@code replaced} is not an inactive segment of this log */
    void requireInactive(List<LogSegment> replaced) {
        for (LogSegment segment : replaced) {
            if (segments.get(segment.baseOffset()) != segment || segment == active()) {
                throw new IllegalArgumentException("segment " + segment + " is not an inactive segment of " + dir);
            }
        }
    }

    /**
     * The cleaner's swap. {@code replacements} are complete segments with the {@code .cleaned} suffix covering
     * exactly the offsets of {@code replaced}. Each step is safe to crash after: replacements are flushed and renamed
     * {@code .swap}; the map switches over; replaced segments are renamed {@code .deleted}; the {@code .swap}
     * suffixes are removed. On open, {@code .cleaned} files are discarded and {@code .swap} files complete the swap.
     */
    void replace(List<LogSegment> replacements, List<LogSegment> replaced, long fileDeleteDelayMs) {
        for (LogSegment segment : replacements) {
            segment.onBecomeInactive();
            segment.flush();
            segment.changeFileSuffixes(LogFileNames.CLEANED_SUFFIX, LogFileNames.SWAP_SUFFIX);
        }
        fsyncDirectory();
        // Replacements go in first so a concurrent read never finds a hole in the offsets.
        for (LogSegment segment : replacements) {
            segments.put(segment.baseOffset(), segment);
        }
        retire(new ArrayList<>(replaced), fileDeleteDelayMs);
        for (LogSegment segment : replacements) {
            segment.changeFileSuffixes(LogFileNames.SWAP_SUFFIX, "");
        }
        fsyncDirectory();
    }

    /** Makes segment files created, renamed or deleted in the log directory durable. */
    void fsyncDirectory() {
        try {
            DurableFiles.fsyncDirectory(dir);
        } catch (IOException e) {
            throw new LogStorageException("cannot fsync log directory " + dir, e);
        }
    }

    /** fsyncs the directory if a segment file was created or renamed since the last time. */
    void fsyncDirectoryIfDirty() {
        if (directoryDirty) {
            fsyncDirectory();
            directoryDirty = false;
        }
    }

    /** The caller is about to fsync the directory outside the lock, covering every change so far. */
    void clearDirectoryDirty() {
        directoryDirty = false;
    }

    /** Closes every segment (trimming indexes) and deletes the files of retired ones. */
    void close() {
        retired.deleteAll();
        for (LogSegment segment : segments.values()) {
            segment.close();
        }
    }

    /** Releases every file handle without writing (failed disk); the files stay as a crash would leave them. */
    void closeHandlers() {
        for (LogSegment segment : segments.values()) {
            segment.closeHandlers();
        }
        retired.closeHandlers();
    }
}
