package io.kraft.storage.log;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads of a partition log, taking no lock: zero-copy slices from the segment holding an offset, never past the log
 * end the caller captured, and the ListOffsets lookups by timestamp, at batch granularity.
 */
final class LogReader {
    private final Path dir;
    private final LogSegments segments;

    LogReader(Path dir, LogSegments segments) {
        this.dir = dir;
        this.segments = segments;
    }

    /**
     * Reads from the batch holding {@code offset}, at most {@code maxBytes} (but a whole first batch if
     * {@code minOneBatch}), from one segment, never past {@code end}; only batches whose last offset is below
     * {@code maxOffsetExclusive}, so a consumer never sees past the high watermark.
     *
     * @throws OffsetOutOfRangeException offset below the log start or above the log end
     */
    LogReadResult read(LogEnd end, long logStartOffset, long offset, int maxBytes, long maxOffsetExclusive,
                       boolean minOneBatch) {
        if (offset < logStartOffset || offset > end.nextOffset()) {
            throw new OffsetOutOfRangeException("offset " + offset + " is outside log " + dir + " range ["
                    + logStartOffset + ", " + end.nextOffset() + "]");
        }
        if (offset == end.nextOffset() || offset >= maxOffsetExclusive) {
            return new LogReadResult(offset, FileSlice.empty(), logStartOffset, end.nextOffset());
        }
        // A bound at or past the captured end cuts nothing; skip the lookup it would cost.
        long bound = maxOffsetExclusive >= end.nextOffset() ? Long.MAX_VALUE : maxOffsetExclusive;
        Map.Entry<Long, LogSegment> entry = segments.holding(offset);
        while (entry != null && entry.getKey() <= end.segmentBaseOffset()) {
            LogSegment segment = entry.getValue();
            int maxPosition = segment.baseOffset() == end.segmentBaseOffset() ? end.segmentPosition()
                    : segment.sizeBytes();
            FileSlice slice = segment.read(offset, maxBytes, maxPosition, minOneBatch, bound);
            if (slice != null) {
                return new LogReadResult(offset, slice, logStartOffset, end.nextOffset());
            }
            entry = segments.after(entry.getKey());
        }
        return new LogReadResult(offset, FileSlice.empty(), logStartOffset, end.nextOffset());
    }

    /**
     * A read_committed read: as {@link #read} bounded by the last stable offset, with the aborted transactions
     * overlapping the bytes returned. Their upper bound is the offset of the first indexed batch at or after the
     * end of the bytes (or the next segment's base, or the log end), capped by the last stable offset: it may
     * name a little more than was read, which a consumer ignores, never less.
     *
     * @throws OffsetOutOfRangeException offset below the log start or above the log end
     */
    CommittedRead readCommitted(LogEnd end, long logStartOffset, long offset, int maxBytes, long lastStableOffset,
                                boolean minOneBatch) {
        LogReadResult result = read(end, logStartOffset, offset, maxBytes, lastStableOffset, minOneBatch);
        FileSlice slice = result.records();
        if (slice.isEmpty()) {
            return new CommittedRead(result, List.of());
        }
        long upperBound = Math.min(lastStableOffset, end.nextOffset());
        Map.Entry<Long, LogSegment> holding = segments.floorEntryByChannel(offset, slice.channel());
        if (holding != null) {
            int endPosition = (int) (slice.position() + slice.sizeBytes());
            Optional<OffsetPosition> next = holding.getValue().offsetIndex().firstEntryAtOrAfterPosition(endPosition);
            if (next.isPresent()) {
                upperBound = Math.min(upperBound, next.get().offset());
            } else {
                Long nextBase = segments.nextBaseOffset(holding.getKey());
                if (nextBase != null) {
                    upperBound = Math.min(upperBound, nextBase);
                }
            }
        }
        return new CommittedRead(result, collectAbortedTransactions(offset, upperBound));
    }

    /**
     * The aborted transactions overlapping [{@code fetchOffset}, {@code upperBoundOffset}), from the transaction
     * indexes of the segment holding the fetch offset and those after it, until an entry's last stable offset
     * reaches the bound (every transaction that could overlap had completed by then).
     */
    List<AbortedTxn> collectAbortedTransactions(long fetchOffset, long upperBoundOffset) {
        List<AbortedTxn> found = new ArrayList<>();
        Map.Entry<Long, LogSegment> entry = segments.holding(fetchOffset);
        while (entry != null) {
            if (entry.getValue().txnIndex().collect(fetchOffset, upperBoundOffset, found)) {
                break;
            }
            entry = segments.after(entry.getKey());
        }
        return found;
    }

    /**
     * The first batch whose max timestamp is at least {@code timestampMs}, as (its max timestamp, its base offset
     * raised to the log start).
     */
    Optional<TimestampOffset> offsetForTimestamp(long timestampMs, long logStartOffset) {
        for (LogSegment segment : segments.inOrder()) {
            if (segment.maxTimestampMs() >= timestampMs) {
                Optional<TimestampOffset> found = segment.findOffsetByTimestamp(timestampMs, logStartOffset);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * KIP-734: the largest timestamp and the base offset of the first batch carrying it (raised to the log start);
     * empty when no batch has a timestamp.
     */
    Optional<TimestampOffset> maxTimestampOffset(long logStartOffset) {
        LogSegment best = null;
        for (LogSegment segment : segments.inOrder()) {
            if (segment.maxTimestampMs() >= 0 && (best == null || segment.maxTimestampMs() > best.maxTimestampMs())) {
                best = segment;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        long maxTimestamp = best.maxTimestampMs();
        long batchLastOffset = best.maxTimestampBatchLastOffset();
        BatchLocation batch = best.firstBatchAtOrAfter(batchLastOffset, best.sizeBytes());
        long offset = batch != null ? batch.baseOffset() : batchLastOffset;
        return Optional.of(new TimestampOffset(maxTimestamp, Math.max(offset, logStartOffset)));
    }
}
