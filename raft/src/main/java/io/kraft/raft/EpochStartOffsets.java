package io.kraft.raft;

import java.util.Map;
import java.util.TreeMap;

/** The first offset of every epoch present in a log, which answers "where does epoch e end" for {@link RaftLog} implementations. */
public final class EpochStartOffsets {
    private final TreeMap<Integer, Long> startByEpoch = new TreeMap<>();

    /** Records an entry at {@code offset} with {@code epoch}, appended at the end of the log. */
    public void appended(int epoch, long offset) {
        Map.Entry<Integer, Long> last = startByEpoch.lastEntry();
        if (last != null && epoch < last.getKey()) {
            throw new IllegalArgumentException("epoch " + epoch + " at offset " + offset
                    + " is below the log's last epoch " + last.getKey());
        }
        if (last == null || epoch > last.getKey()) {
            startByEpoch.put(epoch, offset);
        }
    }

    /** Forgets epochs that start at or after {@code offset}. */
    public void truncatedTo(long offset) {
        startByEpoch.values().removeIf(start -> start >= offset);
    }

    /**
     * The log now starts after {@code snapshot}: epochs wholly inside it are forgotten. With {@code keepSuffix} the
     * entries after the snapshot stay (the log holds the snapshot's last entry); otherwise the log is empty and its
     * last epoch is the snapshot's.
     */
    public void startAfter(SnapshotId snapshot, boolean keepSuffix) {
        if (keepSuffix) {
            startByEpoch.headMap(snapshot.epoch()).clear();
        } else {
            startByEpoch.clear();
        }
        // The snapshot's epoch ends where the log starts, if no entry of it is left to say so.
        startByEpoch.putIfAbsent(snapshot.epoch(), snapshot.endOffset() - 1);
    }

    public OffsetAndEpoch endOffsetForEpoch(int epoch, long logEndOffset) {
        Map.Entry<Integer, Long> floor = startByEpoch.floorEntry(epoch);
        if (floor == null) {
            return new OffsetAndEpoch(0, 0);
        }
        Map.Entry<Integer, Long> next = startByEpoch.higherEntry(floor.getKey());
        return new OffsetAndEpoch(next == null ? logEndOffset : next.getValue(), floor.getKey());
    }

    public int epochOf(long offset) {
        int found = 0;
        for (Map.Entry<Integer, Long> e : startByEpoch.entrySet()) {
            if (e.getValue() > offset) {
                break;
            }
            found = e.getKey();
        }
        return found;
    }

    public int lastEpoch() {
        return startByEpoch.isEmpty() ? 0 : startByEpoch.lastKey();
    }
}
