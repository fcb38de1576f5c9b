package io.kraft.raft;

import java.util.List;

/**
 * The replicated log as its driver owns it: readable like any {@link ReadableRaftLog}, and written only by the driver
 * carrying out a {@link Ready}'s {@link Ready.LogWrites}. Appends and truncations are visible at once;
 * {@link #flush()} makes them durable.
 */
public interface RaftLog extends ReadableRaftLog {

    /** Appends entries whose first offset must equal {@link #endOffset()} and whose epochs never decrease. */
    void append(List<LogEntry> entries);

    /**
     * Removes every entry at or above {@code offset} (never below {@link #startOffset()}); a no-op if the log already
     * ends there.
     */
    void truncateTo(long offset);

    /**
     * Removes every entry below the snapshot's end offset, durably at once. If the log does not hold the
     * snapshot's last entry with the snapshot's epoch (it is shorter, or diverges there), every entry goes and the
     * log restarts empty at the snapshot's end offset, its last epoch the snapshot's.
     */
    void deletePrefix(SnapshotId snapshot);

    /** Makes everything appended so far durable; returns once it is. */
    void flush();
}
