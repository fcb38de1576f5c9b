package io.kraft.raft;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RaftLog} in memory that remembers how much of it was flushed, so a simulation can crash it: the
 * log that survives a crash is {@link #durableCopy()}. Truncation counts as durable at once (a conservative
 * model: it can only make a crash lose more).
 */
public final class InMemoryRaftLog implements RaftLog {
    private final List<LogEntry> entries = new ArrayList<>();
    private final EpochStartOffsets epochs = new EpochStartOffsets();
    private long flushedEndOffset;

    @Override
    public void append(List<LogEntry> newEntries) {
        for (LogEntry entry : newEntries) {
            if (entry.offset() != entries.size()) {
                throw new IllegalArgumentException("append at offset " + entry.offset()
                        + " but the log ends at " + entries.size());
            }
            epochs.appended(entry.epoch(), entry.offset());
            entries.add(entry);
        }
    }

    @Override
    public void truncateTo(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("truncation offset must be >= 0 but was " + offset);
        }
        if (offset >= entries.size()) {
            return;
        }
        entries.subList((int) offset, entries.size()).clear();
        epochs.truncatedTo(offset);
        flushedEndOffset = Math.min(flushedEndOffset, offset);
    }

    @Override
    public List<LogEntry> read(long offset, int maxEntries) {
        if (offset < 0 || offset > entries.size()) {
            throw new IllegalArgumentException("read at offset " + offset + " outside [0, " + entries.size() + "]");
        }
        int end = (int) Math.min(entries.size(), offset + (long) maxEntries);
        return List.copyOf(entries.subList((int) offset, end));
    }

    @Override
    public long endOffset() {
        return entries.size();
    }

    @Override
    public int lastEpoch() {
        return epochs.lastEpoch();
    }

    @Override
    public int epochOf(long offset) {
        if (offset < 0 || offset >= entries.size()) {
            throw new IllegalArgumentException("no entry at offset " + offset + " (log ends at " + entries.size() + ")");
        }
        return entries.get((int) offset).epoch();
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        return epochs.endOffsetForEpoch(epoch, entries.size());
    }

    @Override
    public void flush() {
        flushedEndOffset = entries.size();
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
     * unflushed entries (a torn write, cut at an entry boundary by recovery): the flushed prefix plus those.
     */
    public InMemoryRaftLog durableCopy(int luckyUnflushedEntries) {
        int keep = (int) Math.min(entries.size(), flushedEndOffset + Math.max(0, luckyUnflushedEntries));
        InMemoryRaftLog copy = new InMemoryRaftLog();
        copy.append(entries.subList(0, keep));
        copy.flushedEndOffset = keep;
        return copy;
    }
}
