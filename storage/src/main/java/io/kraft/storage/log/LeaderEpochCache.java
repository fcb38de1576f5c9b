package io.kraft.storage.log;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The leader epochs of one partition log and the offset each began at, persisted in
 * {@code leader-epoch-checkpoint} (version 0, a count, {@code epoch startOffset} lines). Followers use
 * it to answer OffsetForLeaderEpoch and to truncate after a leader change (KIP-101, KIP-279).
 * Entries have strictly increasing epochs and start offsets. Thread-safe.
 */
public final class LeaderEpochCache {
    public static final String FILE_NAME = "leader-epoch-checkpoint";
    private static final int VERSION = 0;

    private final CheckpointFile checkpoint;
    private final List<EpochEntry> entries = new ArrayList<>();

    /** Loads the cache of a partition directory; a missing file is an empty cache. */
    public LeaderEpochCache(Path partitionDir) {
        this.checkpoint = new CheckpointFile(partitionDir.resolve(FILE_NAME), VERSION);
        for (String line : checkpoint.read()) {
            String[] parts = line.split("\\s+");
            EpochEntry entry;
            try {
                if (parts.length != 2) {
                    throw new NumberFormatException();
                }
                entry = new EpochEntry(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
            } catch (NumberFormatException e) {
                throw new CorruptCheckpointException("leader epoch checkpoint " + checkpoint.file() + " line '" + line
                        + "' is not 'epoch startOffset'");
            }
            if (!entries.isEmpty()) {
                EpochEntry last = entries.get(entries.size() - 1);
                if (entry.epoch() <= last.epoch() || entry.startOffset() <= last.startOffset()) {
                    throw new CorruptCheckpointException("leader epoch checkpoint " + checkpoint.file() + " entry "
                            + entry + " does not follow " + last);
                }
            }
            entries.add(entry);
        }
    }

    /**
     * Records that {@code epoch} starts at {@code startOffset}. Epochs not above the latest are ignored;
     * entries starting at or after startOffset are replaced, since this epoch now owns those offsets.
     *
     * @return true if the cache changed (and was persisted)
     */
    public synchronized boolean assign(int epoch, long startOffset) {
        if (epoch < 0 || startOffset < 0) {
            return false;
        }
        if (!entries.isEmpty() && epoch <= entries.get(entries.size() - 1).epoch()) {
            return false;
        }
        entries.removeIf(e -> e.startOffset() >= startOffset);
        entries.add(new EpochEntry(epoch, startOffset));
        persist(true);
        return true;
    }

    public synchronized Optional<EpochEntry> latestEntry() {
        return entries.isEmpty() ? Optional.empty() : Optional.of(entries.get(entries.size() - 1));
    }

    /** The newest epoch, or UNDEFINED_EPOCH when empty. */
    public synchronized int latestEpoch() {
        return entries.isEmpty() ? EpochEndOffset.UNDEFINED_EPOCH : entries.get(entries.size() - 1).epoch();
    }

    public synchronized Optional<EpochEntry> earliestEntry() {
        return entries.isEmpty() ? Optional.empty() : Optional.of(entries.get(0));
    }

    /**
     * OffsetForLeaderEpoch: the largest known epoch at most {@code requestedEpoch} and the offset where
     * it ended (the start of the next higher epoch, or the log end offset for the latest epoch). A
     * requested epoch below every known one gets (requestedEpoch, start of the first epoch), so a
     * follower truncates to where the known history begins; one above every known epoch, an undefined
     * epoch, or an empty cache get UNDEFINED.
     */
    public synchronized EpochEndOffset endOffsetFor(int requestedEpoch, long logEndOffset) {
        if (requestedEpoch == EpochEndOffset.UNDEFINED_EPOCH || entries.isEmpty()) {
            return EpochEndOffset.UNDEFINED;
        }
        EpochEntry latest = entries.get(entries.size() - 1);
        if (requestedEpoch == latest.epoch()) {
            return new EpochEndOffset(requestedEpoch, logEndOffset);
        }
        if (requestedEpoch > latest.epoch()) {
            return EpochEndOffset.UNDEFINED;
        }
        EpochEntry floor = null;
        EpochEntry higher = null;
        for (EpochEntry entry : entries) {
            if (entry.epoch() <= requestedEpoch) {
                floor = entry;
            } else {
                higher = entry;
                break;
            }
        }
        if (floor == null) {
            return new EpochEndOffset(requestedEpoch, higher.startOffset());
        }
        return new EpochEndOffset(floor.epoch(), higher.startOffset());
    }

    /** Log truncated to {@code endOffset}: forget epochs that start at or after it. */
    public synchronized void truncateFromEnd(long endOffset) {
        if (entries.removeIf(e -> e.startOffset() >= endOffset)) {
            persist(false);
        }
    }

    /**
     * Log start moved to {@code startOffset}: drop epochs wholly before it and move the start of the
     * epoch that covers it up to startOffset.
     */
    public synchronized void truncateFromStart(long startOffset) {
        int covering = -1;
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).startOffset() <= startOffset) {
                covering = i;
            }
        }
        if (covering < 0) {
            return;
        }
        EpochEntry entry = entries.get(covering);
        if (covering == 0 && entry.startOffset() == startOffset) {
            return;
        }
        entries.subList(0, covering + 1).clear();
        entries.add(0, new EpochEntry(entry.epoch(), startOffset));
        persist(false);
    }

    /** Removes every entry (the log restarts at a new offset). */
    public synchronized void clear() {
        if (!entries.isEmpty()) {
            entries.clear();
            persist(true);
        }
    }

    public synchronized List<EpochEntry> entries() {
        return List.copyOf(entries);
    }

    /**
     * Truncations are written without fsync: the log re-applies them on open (truncateFromEnd to the
     * log end, truncateFromStart to the log start), so an older file after a crash is harmless.
     */
    private void persist(boolean durable) {
        List<String> lines = new ArrayList<>(entries.size());
        for (EpochEntry entry : entries) {
            lines.add(entry.epoch() + " " + entry.startOffset());
        }
        checkpoint.write(lines, durable);
    }
}
