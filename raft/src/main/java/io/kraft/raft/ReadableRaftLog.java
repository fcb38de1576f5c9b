package io.kraft.raft;

import java.util.List;

/**
 * The replicated log, read only: what the Raft core may see of the driver's log (like etcd's read-only
 * {@code Storage}). Offsets are dense from {@link #startOffset()} (0 until a snapshot replaced a prefix); an epoch of
 * 0 means "no entry".
 */
public interface ReadableRaftLog {

    /** The first offset still in the log; entries below it live only in a snapshot. */
    long startOffset();

    /** Up to {@code maxEntries} entries starting at {@code offset}, which must be at least {@link #startOffset()}. */
    List<LogEntry> read(long offset, int maxEntries);

    /** The offset the next appended entry gets. */
    long endOffset();

    /** The epoch of the last entry (or of the snapshot the log starts after), or 0 when there is neither. */
    int lastEpoch();

    /** The epoch of the entry at {@code offset}, which must lie in [{@link #startOffset()}, {@link #endOffset()}). */
    int epochOf(long offset);

    /**
     * For the largest epoch in this log that is at most {@code epoch}: that epoch and the offset just past its
     * last entry. Returns (0, 0) when every entry has a larger epoch (or the log is empty); after a prefix deletion
     * an epoch wholly inside the snapshot also gives (0, 0), which callers treat as "below the log start".
     */
    OffsetAndEpoch endOffsetForEpoch(int epoch);

    /** The end offset and last epoch together: what a vote request compares. */
    default OffsetAndEpoch lastOffsetAndEpoch() {
        return new OffsetAndEpoch(endOffset(), lastEpoch());
    }
}
