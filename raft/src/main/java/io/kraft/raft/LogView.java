package io.kraft.raft;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The log as the core sees it: the driver's log, which the core only reads, under the core's own writes until a flush
 * report says they are durable (etcd's "unstable" entries). Offsets at or above {@code tailStart} are served from
 * the in-memory tail; below it the driver's log agrees with this view whether or not the driver has yet carried out
 * the writes handed to it, because every write touches only offsets at or above {@code tailStart}, and
 * {@code tailStart} moves up only over entries a flush report covered.
 *
 * <p>Writes since the last {@link Ready} are handed out by {@link #takeWrites()} as one prefix deletion, one
 * truncation and one run of appends, applied in that order. Whatever the core did in between (append, truncate,
 * delete a prefix, in any order) is folded into that form so that the driver's log, once it applied them, holds
 * exactly this view.
 *
 * <p>The log holds whole batches only (see {@link LogEntry}): a batch enters it in one {@link #append}, a fetch
 * hands out whole batches ({@link #readBatches}), a truncation never cuts one ({@link #truncateTo} asserts it), and a
 * batch a crash tore is dropped at startup ({@link #dropIncompleteBatch}). So its end, every epoch's end, a
 * snapshot's end and the high watermark all lie between batches.
 */
final class LogView implements ReadableRaftLog {
    private static final long NO_TRUNCATION = Long.MAX_VALUE;
    private static final int UNKNOWN_EPOCH = -1;
    private static final int BACKWARD_READ_ENTRIES = 256;

    private final ReadableRaftLog storage;
    private final List<LogEntry> tail = new ArrayList<>();
    private long startOffset;
    /** Epoch of the entry just before {@link #startOffset} (the snapshot's the log starts after), 0 for none. */
    private int startEpoch;
    private long tailStart;
    /** Epoch of the entry just before {@link #tailStart}. */
    private int tailBaseEpoch;
    /** How far this view's log is known durable: all a follower may acknowledge and a leader count. */
    private long flushedEndOffset;

    // What the next Ready hands out.
    private SnapshotId pendingPrefixDeletion;
    private long pendingTruncation = NO_TRUNCATION;
    /** Tail entries at or above this were not handed out yet. */
    private long unsentFrom;
    private boolean flushWanted;
    /**
     * Below this the driver's log holds what this view holds once it has applied every write handed out so far: the
     * view's end at the last hand-out, lowered by truncations and resets since.
     */
    private long writtenEnd;
    /** Told of every voters record appended and every cut, so the voter set follows the log. */
    private VoterHistory voters;

    /** A view of {@code storage} as found at startup, all of it durable; {@code latest} is the latest snapshot. */
    LogView(ReadableRaftLog storage, Optional<SnapshotId> latest) {
        this.storage = storage;
        this.startOffset = storage.startOffset();
        // The log starts after some snapshot; only when it is the latest do we know its epoch, which is all that can
        // be needed: a truncation to the log start lies at or above the high watermark, so at the latest snapshot.
        this.startEpoch = startOffset == 0 ? 0
                : latest.filter(s -> s.endOffset() == startOffset).map(SnapshotId::epoch).orElse(UNKNOWN_EPOCH);
        this.tailStart = storage.endOffset();
        this.tailBaseEpoch = storage.lastEpoch();
        this.flushedEndOffset = tailStart;
        this.unsentFrom = tailStart;
        this.writtenEnd = tailStart;
    }

    /** Keeps {@code history} in step with this view from now on. */
    void trackVoters(VoterHistory history) {
        this.voters = history;
    }

    // ---------------------------------------------------------------- reading

    @Override
    public long startOffset() {
        return startOffset;
    }

    @Override
    public long endOffset() {
        return tailStart + tail.size();
    }

    @Override
    public int lastEpoch() {
        return tail.isEmpty() ? tailBaseEpoch : tail.get(tail.size() - 1).epoch();
    }

    @Override
    public int epochOf(long offset) {
        if (offset < startOffset || offset >= endOffset()) {
            throw new IllegalArgumentException("no entry at offset " + offset + " (log holds [" + startOffset + ", "
                    + endOffset() + "))");
        }
        return offset >= tailStart ? tail.get((int) (offset - tailStart)).epoch() : storage.epochOf(offset);
    }

    @Override
    public List<LogEntry> read(long offset, int maxEntries) {
        if (offset < startOffset || offset > endOffset()) {
            throw new IllegalArgumentException("read at offset " + offset + " outside [" + startOffset + ", "
                    + endOffset() + "]");
        }
        List<LogEntry> entries = new ArrayList<>();
        if (offset < tailStart) {
            int wanted = (int) Math.min(maxEntries, tailStart - offset);
            entries.addAll(storage.read(offset, wanted));
            if (entries.size() != wanted) {
                throw new IllegalStateException("the driver's log returned " + entries.size() + " entries from "
                        + offset + " but holds [" + storage.startOffset() + ", " + storage.endOffset() + "), not up to "
                        + tailStart + " as flushed");
            }
        }
        long next = offset + entries.size();
        if (entries.size() < maxEntries && next >= tailStart) {
            int from = (int) (next - tailStart);
            int to = (int) Math.min(tail.size(), from + (long) (maxEntries - entries.size()));
            entries.addAll(tail.subList(from, to));
        }
        return entries;
    }

    /**
     * Whether {@code offset} lies between two batches: at the log start (a snapshot ends after a whole batch) or just
     * after an entry that ends its batch. {@code offset} must be in [{@link #startOffset()}, {@link #endOffset()}].
     */
    boolean batchEndsAt(long offset) {
        return offset == startOffset || read(offset - 1, 1).get(0).endsBatch();
    }

    /**
     * Whole batches from {@code offset}: as many as fit in {@code maxEntries}, or the first batch whole if it alone is
     * longer (as Kafka sends an oversized first batch whole, so that any batch can travel). Empty at the log end. From
     * inside a batch, the rest of that batch counts as the first.
     */
    List<LogEntry> readBatches(long offset, int maxEntries) {
        return readBatches(offset, maxEntries, Long.MAX_VALUE);
    }

    /**
     * As {@link #readBatches(long, int)}, within {@code maxBytes} of payload: the first batch is whole whatever its
     * size (at most {@link RaftConfig#MAX_BATCH_BYTES}), later ones only while they fit, so a response stays within
     * the transport's message limit.
     */
    List<LogEntry> readBatches(long offset, int maxEntries, long maxBytes) {
        List<LogEntry> whole = readWholeBatches(offset, maxEntries);
        long bytes = 0;
        int lastFittingEnd = 0;
        for (int i = 0; i < whole.size(); i++) {
            bytes += whole.get(i).payload().length;
            if (whole.get(i).endsBatch()) {
                if (bytes > maxBytes && lastFittingEnd > 0) {
                    break;
                }
                lastFittingEnd = i + 1;
            }
        }
        return lastFittingEnd == whole.size() ? whole : List.copyOf(whole.subList(0, lastFittingEnd));
    }

    private List<LogEntry> readWholeBatches(long offset, int maxEntries) {
        List<LogEntry> entries = new ArrayList<>(read(offset, maxEntries));
        int wholeEnd = entries.size();
        while (wholeEnd > 0 && !entries.get(wholeEnd - 1).endsBatch()) {
            wholeEnd--;
        }
        while (wholeEnd == 0 && !entries.isEmpty()) {
            int before = entries.size();
            if (offset + before >= endOffset()) {
                throw new IllegalStateException("the log ends at " + endOffset() + " inside the batch from " + offset);
            }
            entries.addAll(read(offset + before, maxEntries));
            for (int i = before; i < entries.size() && wholeEnd == 0; i++) {
                if (entries.get(i).endsBatch()) {
                    wholeEnd = i + 1;
                }
            }
        }
        return wholeEnd == entries.size() ? entries : List.copyOf(entries.subList(0, wholeEnd));
    }

    /** Throws unless {@code offset} lies between two batches: {@code what} it is, for the message. */
    void requireBatchBoundary(long offset, String what) {
        if (offset > startOffset && offset <= endOffset() && !batchEndsAt(offset)) {
            throw new IllegalStateException(what + " " + offset + " lies inside a batch: "
                    + read(offset - 1, 1).get(0));
        }
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        if (!tail.isEmpty() && tail.get(0).epoch() <= epoch) {
            // Epochs never decrease: the last tail entry of epoch at most `epoch` ends that epoch's run.
            int last = tail.size() - 1;
            while (tail.get(last).epoch() > epoch) {
                last--;
            }
            return new OffsetAndEpoch(tailStart + last + 1, tail.get(last).epoch());
        }
        if (epoch >= tailBaseEpoch) {
            return new OffsetAndEpoch(tailStart, tailBaseEpoch); // every tail entry (if any) has a later epoch
        }
        if (epoch < startEpoch) {
            // Wholly inside the snapshot the log starts after; the driver's log may not have deleted it yet.
            return new OffsetAndEpoch(0, 0);
        }
        return storage.endOffsetForEpoch(epoch); // an earlier epoch ends below tailStart, where storage agrees
    }

    /** How far this log is known durable. */
    long flushedEndOffset() {
        return flushedEndOffset;
    }

    /** Sets how far the log is durable, for a log reset to a snapshot that is durable itself. */
    void flushedTo(long offset) {
        flushedEndOffset = offset;
    }

    // ---------------------------------------------------------------- writing (handed out with the next Ready)

    /**
     * Appends whole batches whose first offset is {@link #endOffset()} and whose epochs never decrease; asks for a
     * flush. A batch never spans epochs, and only data continues one.
     */
    void append(List<LogEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        if (!entries.get(entries.size() - 1).endsBatch()) {
            throw new IllegalArgumentException("append of " + entries.size() + " entries from "
                    + entries.get(0).offset() + " ends inside a batch");
        }
        LogEntry previous = endOffset() > startOffset ? read(endOffset() - 1, 1).get(0) : null;
        for (LogEntry entry : entries) {
            if (entry.offset() != endOffset()) {
                throw new IllegalArgumentException("append at offset " + entry.offset() + " but the log ends at "
                        + endOffset());
            }
            if (entry.epoch() < lastEpoch()) {
                throw new IllegalArgumentException("epoch " + entry.epoch() + " at offset " + entry.offset()
                        + " is below the log's last epoch " + lastEpoch());
            }
            if (previous != null && !previous.endsBatch() && (!entry.isData() || entry.epoch() != previous.epoch())) {
                throw new IllegalArgumentException(entry + " cannot continue the batch of " + previous);
            }
            tail.add(entry);
            if (voters != null) {
                voters.appended(entry);
            }
            previous = entry;
        }
        flushWanted = true;
    }

    /** Removes every entry at or above {@code offset}, which lies between two batches; none is durable any more. */
    void truncateTo(long offset) {
        if (offset < startOffset) {
            throw new IllegalArgumentException("truncation offset " + offset + " is below the log start " + startOffset);
        }
        if (offset >= endOffset()) {
            return;
        }
        requireBatchBoundary(offset, "truncation offset");
        if (voters != null) {
            voters.truncatedTo(offset);
        }
        if (offset >= tailStart) {
            tail.subList((int) (offset - tailStart), tail.size()).clear();
        } else {
            tailBaseEpoch = offset > startOffset ? storage.epochOf(offset - 1) : knownStartEpoch();
            tail.clear();
            tailStart = offset;
        }
        pendingTruncation = Math.min(pendingTruncation, offset);
        unsentFrom = Math.min(unsentFrom, offset);
        writtenEnd = Math.min(writtenEnd, offset);
        flushedEndOffset = Math.min(flushedEndOffset, offset);
    }

    /**
     * Drops the batch a crash tore at the end of the log found at startup, if it ends inside one: a member
     * acknowledges only flushed whole batches, so nobody counted any of it, and keeping it would let a later
     * leader-change record commit part of a batch.
     */
    void dropIncompleteBatch() {
        long end = batchStartAtOrBelow(endOffset());
        if (end < endOffset()) {
            truncateTo(end);
        }
    }

    /**
     * The largest offset at or below {@code offset} (which must be in [{@link #startOffset()},
     * {@link #endOffset()}]) that lies between two batches: {@code offset} itself, or the start of the batch it lies
     * inside.
     */
    long batchStartAtOrBelow(long offset) {
        long end = offset;
        while (end > startOffset) {
            // Backwards in chunks: a batch may be long, and reading entries one by one from disk is slow.
            long from = Math.max(startOffset, end - BACKWARD_READ_ENTRIES);
            List<LogEntry> entries = read(from, (int) (end - from));
            for (int i = entries.size() - 1; i >= 0; i--) {
                if (entries.get(i).endsBatch()) {
                    return entries.get(i).offset() + 1;
                }
            }
            end = from;
        }
        return startOffset;
    }

    /**
     * Removes every entry below the snapshot's end offset. If the log does not hold the snapshot's last entry with
     * the snapshot's epoch, every entry goes and the log restarts empty at the snapshot's end (a reset).
     */
    void deletePrefix(SnapshotId snapshot) {
        long end = snapshot.endOffset();
        if (end < startOffset) {
            throw new IllegalArgumentException("snapshot " + snapshot + " ends below the log start " + startOffset);
        }
        boolean keepSuffix = end <= endOffset()
                && (end == startOffset ? knownStartEpoch() == snapshot.epoch() : epochOf(end - 1) == snapshot.epoch());
        if (keepSuffix && end == startOffset) {
            return; // the log already starts after this snapshot
        }
        if (keepSuffix) {
            if (tailStart < end) {
                tail.subList(0, (int) (end - tailStart)).clear();
                tailStart = end;
                tailBaseEpoch = snapshot.epoch();
            }
            // The driver's log decides the same way once its older writes are in, except where a write since then
            // changed the snapshot's last entry: truncating at the snapshot's end then removes what it kept.
            if (pendingTruncation != NO_TRUNCATION) {
                pendingTruncation = Math.max(pendingTruncation, end);
            }
            unsentFrom = Math.max(unsentFrom, end);
        } else {
            tail.clear();
            tailStart = end;
            tailBaseEpoch = snapshot.epoch();
            // Whether the driver's log resets too or keeps a stale suffix, truncating at the end empties it.
            pendingTruncation = end;
            unsentFrom = end;
            if (voters != null) {
                voters.truncatedTo(end);
            }
            writtenEnd = Math.min(writtenEnd, end);
        }
        startOffset = end;
        startEpoch = snapshot.epoch();
        pendingPrefixDeletion = snapshot;
        if (voters != null) {
            voters.prefixDeleted(end);
        }
    }

    private int knownStartEpoch() {
        if (startEpoch == UNKNOWN_EPOCH) {
            throw new IllegalStateException("the epoch of the snapshot the log starts after (at " + startOffset
                    + ") is unknown");
        }
        return startEpoch;
    }

    /** Whether writes wait to be handed out. */
    boolean hasWrites() {
        return pendingPrefixDeletion != null || pendingTruncation != NO_TRUNCATION || unsentFrom < endOffset()
                || flushWanted;
    }

    /** The writes since the last Ready, in the form the driver applies; they stay in the tail until flushed. */
    Ready.LogWrites takeWrites() {
        if (!hasWrites()) {
            return Ready.LogWrites.NONE;
        }
        Ready.LogWrites writes = new Ready.LogWrites(Optional.ofNullable(pendingPrefixDeletion),
                pendingTruncation == NO_TRUNCATION ? OptionalLong.empty() : OptionalLong.of(pendingTruncation),
                tail.subList((int) (unsentFrom - tailStart), tail.size()), flushWanted);
        pendingPrefixDeletion = null;
        pendingTruncation = NO_TRUNCATION;
        unsentFrom = endOffset();
        writtenEnd = endOffset();
        flushWanted = false;
        return writes;
    }

    /**
     * The driver flushed its log, which ends at {@code reportedEndOffset} and holds every write handed out so far:
     * what lies below both that and {@link #writtenEnd} is durable, and from now on is read from the driver's log.
     */
    void flushed(long reportedEndOffset) {
        long durable = Math.min(reportedEndOffset, writtenEnd);
        if (durable > flushedEndOffset) {
            flushedEndOffset = durable;
        }
        if (durable > tailStart) {
            int stable = (int) Math.min(durable - tailStart, tail.size());
            tailBaseEpoch = tail.get(stable - 1).epoch();
            tail.subList(0, stable).clear();
            tailStart += stable;
        }
    }

    /** Entries held in memory because no flush report covered them yet. */
    int unstableEntries() {
        return tail.size();
    }
}
