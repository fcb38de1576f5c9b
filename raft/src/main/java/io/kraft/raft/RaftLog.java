package io.kraft.raft;

import java.util.List;

/**
 * The replicated log as the Raft core sees it. Appends and truncations are visible at once; {@link #flush()}
 * makes them durable. Offsets are dense and start at 0; an epoch of 0 means "no entry".
 */
public interface RaftLog {

    /** Appends entries whose first offset must equal {@link #endOffset()} and whose epochs never decrease. */
    void append(List<LogEntry> entries);

    /** Removes every entry at or above {@code offset}; a no-op if the log already ends there. */
    void truncateTo(long offset);

    /** Up to {@code maxEntries} entries starting at {@code offset}; empty if {@code offset == endOffset()}. */
    List<LogEntry> read(long offset, int maxEntries);

    /** The offset the next appended entry gets. */
    long endOffset();

    /** The epoch of the last entry, or 0 when the log is empty. */
    int lastEpoch();

    /** The epoch of the entry at {@code offset}; {@code offset} must be below {@link #endOffset()}. */
    int epochOf(long offset);

    /**
     * For the largest epoch in this log that is at most {@code epoch}: that epoch and the offset just past its
     * last entry. Returns (0, 0) when every entry has a larger epoch (or the log is empty).
     */
    OffsetAndEpoch endOffsetForEpoch(int epoch);

    /** Makes everything appended so far durable; returns once it is. */
    void flush();

    /** The end offset and last epoch together: what a vote request compares. */
    default OffsetAndEpoch lastOffsetAndEpoch() {
        return new OffsetAndEpoch(endOffset(), lastEpoch());
    }
}
