package io.kraft.raft;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RaftLog} in memory that remembers how much of it was flushed, so a simulation can crash it: the
 * log that survives a crash is {@link #durableCopy()}. Truncation and prefix deletion count as durable at once (a
 * conservative model: it can only make a crash lose more).
 */
public final class InMemoryRaftLog implements RaftLog {
    private final List<LogEntry> entries = new ArrayList<>();
    private final EpochStartOffsets epochs = new EpochStartOffsets();
    private long startOffset;
    private SnapshotId startSnapshot;
    private long flushedEndOffset;

    @Override
    public void append(List<LogEntry> newEntries) {
        for (LogEntry entry : newEntries) {
            if (entry.offset() != endOffset()) {
                throw new IllegalArgumentException("append at offset " + entry.offset()
                        + " but the log ends at " + endOffset());
            }
            epochs.appended(entry.epoch(), entry.offset());
            entries.add(entry);
        }
    }

    @Override
    public void truncateTo(long offset) {
        if (offset < startOffset) {
            throw new IllegalArgumentException("truncation offset " + offset + " is below the log start "
                    + startOffset);
        }
        if (offset >= endOffset()) {
            return;
        }
        entries.subList((int) (offset - startOffset), entries.size()).clear();
        epochs.truncatedTo(offset);
        flushedEndOffset = Math.min(flushedEndOffset, offset);
    }

    @Override
    public void deletePrefix(SnapshotId snapshot) {
        long end = snapshot.endOffset();
        if (end < startOffset) {
            throw new IllegalArgumentException("snapshot " + snapshot + " ends below the log start " + startOffset);
        }
        boolean keepSuffix = end <= endOffset() && (end == startOffset
                ? startSnapshot != null && startSnapshot.equals(snapshot) : epochOf(end - 1) == snapshot.epoch());
        if (keepSuffix) {
            entries.subList(0, (int) (end - startOffset)).clear();
        } else {
            entries.clear();
            flushedEndOffset = end;
        }
        epochs.startAfter(snapshot, keepSuffix);
        startOffset = end;
        startSnapshot = snapshot;
        flushedEndOffset = Math.max(flushedEndOffset, end);
    }

    @Override
    public long startOffset() {
        return startOffset;
    }

    @Override
    public List<LogEntry> read(long offset, int maxEntries) {
        if (offset < startOffset || offset > endOffset()) {
            throw new IllegalArgumentException("read at offset " + offset + " outside [" + startOffset + ", "
                    + endOffset() + "]");
        }
        int from = (int) (offset - startOffset);
        int to = (int) Math.min(entries.size(), from + (long) maxEntries);
        return List.copyOf(entries.subList(from, to));
    }

    @Override
    public long endOffset() {
        return startOffset + entries.size();
    }

    @Override
    public int lastEpoch() {
        return epochs.lastEpoch();
    }

    @Override
    public int epochOf(long offset) {
        if (offset < startOffset || offset >= endOffset()) {
            throw new IllegalArgumentException("no entry at offset " + offset + " (log holds [" + startOffset + ", "
                    + endOffset() + "))");
        }
        return entries.get((int) (offset - startOffset)).epoch();
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        return epochs.endOffsetForEpoch(epoch, endOffset());
    }

    @Override
    public void flush() {
        flushedEndOffset = endOffset();
    }

    /** How far the last {@link #flush()} reached (less if truncated since). */
    public long flushedEndOffset() {
        return flushedEndOffset;
    }

    /** What a crash leaves behind: the flushed prefix only. */
    public InMemoryRaftLog durableCopy() {
        return durableCopy(0);
    }

    /**
     * What a crash leaves behind when the page cache had already written {@code luckyUnflushedEntries} of the
     * unflushed entries (a torn write, cut at an entry boundary by recovery): the flushed prefix plus those. That may
     * end inside a batch, unlike a reopened {@link io.kraft.raft.file.FileRaftLog}, which cuts a torn batch too: the
     * {@link RaftNode} restarted on it drops that part itself.
     */
    public InMemoryRaftLog durableCopy(int luckyUnflushedEntries) {
        long keepEnd = Math.min(endOffset(), flushedEndOffset + Math.max(0, luckyUnflushedEntries));
        InMemoryRaftLog copy = new InMemoryRaftLog();
        if (startSnapshot != null) {
            copy.deletePrefix(startSnapshot);
        }
        copy.append(entries.subList(0, (int) (keepEnd - startOffset)));
        copy.flushedEndOffset = keepEnd;
        return copy;
    }
}
