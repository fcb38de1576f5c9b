package io.kraft.storage.cleaner;

import io.kraft.storage.log.AbortedTxn;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.LogFileNames;
import io.kraft.storage.log.LogSegment;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.Record;
import io.kraft.storage.record.RecordBatch;
import io.kraft.storage.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts a log ({@code cleanup.policy=compact}): rewrites its inactive segments keeping only the
 * latest record of each key, at its original offset, and drops tombstones once their delete horizon
 * has passed.
 *
 * <p>One pass: map the dirty section (from the last pass's end up to the uncleanable offset) key →
 * latest offset; then rewrite every cleanable segment up to the end of what was mapped, in groups
 * that fit one segment, each group written to a {@code .cleaned} segment and swapped in through
 * {@link Log#replaceSegments}, whose rename protocol makes a crash at any step recover to either the
 * old or the new segments. A record survives when no later offset of its key was mapped.
 *
 * <p>Tombstones (KIP-534): the first pass that keeps a tombstone stamps its batch with a delete
 * horizon of now + {@code delete.retention.ms}; a pass after the horizon drops it.
 *
 * <p>Transactions (KIP-98): the caller never lets a pass reach the last stable offset, so every transaction in
 * the cleaned range is complete. The aborted ones, listed by the segments' {@code .txnindex}, lose their data,
 * which never shadows other records; committed transactional data is compacted like any other. A marker whose
 * transaction has no data left is treated like a tombstone: stamped with a delete horizon, dropped by a pass after
 * it. An ABORT marker that still had data enters the cleaned segment's {@code .txnindex} again.
 * A producer's last batch (data or marker) is kept even when emptied, so its sequence and epoch state survives.
 *
 * <p>One cleaner runs one pass at a time (it owns its offset map); callers serialize passes.
 */
public final class LogCleaner {
    private static final Logger LOG = LoggerFactory.getLogger(LogCleaner.class);
    private static final int IO_BUFFER_BYTES = 1024 * 1024;

    private final OffsetMap offsetMap;

    /** @param dedupeBufferBytes memory for the key map ({@code log.cleaner.dedupe.buffer.size}) */
    public LogCleaner(int dedupeBufferBytes) {
        this.offsetMap = new OffsetMap(dedupeBufferBytes);
    }

    /**
     * Share of the cleanable bytes that is dirty (not yet cleaned), which the caller compares with
     * {@code min.cleanable.dirty.ratio}; 0 when nothing is cleanable.
     */
    public static double dirtyRatio(Log log, long firstDirtyOffset, long firstUncleanableOffset, long nowMs) {
        long clean = 0;
        long dirty = 0;
        for (SegmentRange range : cleanableSegments(log, firstUncleanableOffset, nowMs)) {
            if (range.endOffset() <= firstDirtyOffset) {
                clean += range.segment().sizeBytes();
            } else {
                dirty += range.segment().sizeBytes();
            }
        }
        return clean + dirty == 0 ? 0.0 : (double) dirty / (clean + dirty);
    }

    /**
     * Cleans {@code log} from its start up to at most {@code firstUncleanableOffset} (exclusive; the
     * broker passes the high watermark, and the active segment is never cleaned).
     *
     * @param firstDirtyOffset where the previous pass ended (its {@link CleanResult#nextDirtyOffset}),
     *     or the log start offset for a log never cleaned
     */
    public CleanResult clean(Log log, long firstDirtyOffset, long firstUncleanableOffset, long nowMs) {
        List<SegmentRange> cleanable = cleanableSegments(log, firstUncleanableOffset, nowMs);
        if (cleanable.isEmpty()) {
            return CleanResult.nothing(firstDirtyOffset);
        }
        long cleanableEnd = cleanable.get(cleanable.size() - 1).endOffset();
        long dirtyStart = Math.max(firstDirtyOffset, log.logStartOffset());
        if (dirtyStart >= cleanableEnd) {
            return CleanResult.nothing(firstDirtyOffset);
        }
        int maxBatchBytes = maxBatchBytes(log.config());
        offsetMap.clear();
        List<AbortedTxn> aborted = log.collectAbortedTransactions(log.logStartOffset(), cleanableEnd);
        long mappedEnd = buildOffsetMap(cleanable, dirtyStart, cleanableEnd, maxBatchBytes,
                new CleanerTransactions(aborted));
        Map<Long, Long> lastBatchOfProducer = lastBatchOfEachProducer(cleanable, maxBatchBytes);

        List<SegmentRange> toClean = new ArrayList<>();
        for (SegmentRange range : cleanable) {
            if (range.segment().baseOffset() < mappedEnd) {
                toClean.add(range);
            }
        }
        Counters counters = new Counters();
        long deleteHorizonMs = nowMs + log.config().deleteRetentionMs();
        CleanerTransactions transactions = new CleanerTransactions(aborted);
        for (List<LogSegment> group : groupSegments(toClean, log.config())) {
            cleanGroup(log, group, nowMs, deleteHorizonMs, lastBatchOfProducer, maxBatchBytes, counters, transactions);
        }
        CleanResult result = new CleanResult(mappedEnd, toClean.size(), counters.bytesRead, counters.bytesWritten,
                counters.recordsRead, counters.recordsRemoved, counters.tombstonesRemoved,
                counters.abortedRecordsRemoved, counters.markersRemoved);
        LOG.info("log {} cleaned up to offset {}: {} segments, {} -> {} bytes, {} of {} records removed ({} tombstones, "
                + "{} aborted, {} markers)", log.dir(), mappedEnd, result.segmentsCleaned(), result.bytesRead(),
                result.bytesWritten(), result.recordsRemoved(), result.recordsRead(), result.tombstonesRemoved(),
                result.abortedRecordsRemoved(), result.markersRemoved());
        return result;
    }

    /** A segment with the offset its successor starts at. */
    record SegmentRange(LogSegment segment, long endOffset) {
    }

    /**
     * Inactive segments whose every offset is below {@code firstUncleanableOffset}, in offset order,
     * up to the first segment holding a record younger than {@code min.compaction.lag.ms}.
     */
    static List<SegmentRange> cleanableSegments(Log log, long firstUncleanableOffset, long nowMs) {
        List<LogSegment> segments = log.segments();
        long minLagMs = log.config().minCompactionLagMs();
        List<SegmentRange> result = new ArrayList<>();
        for (int i = 0; i + 1 < segments.size(); i++) {
            long end = segments.get(i + 1).baseOffset();
            if (end > firstUncleanableOffset) {
                break;
            }
            if (minLagMs > 0 && segments.get(i).largestTimestampMs() > nowMs - minLagMs) {
                break;
            }
            result.add(new SegmentRange(segments.get(i), end));
        }
        return result;
    }

    private static int maxBatchBytes(LogConfig config) {
        // A batch on disk was at most max.message.bytes when written, but the topic setting may since
        // have shrunk; the segment size bounds every batch in any case.
        return Math.max(config.maxMessageBytes(), config.segmentBytes());
    }

    /**
     * Maps key → latest offset over the dirty section, stopping at a batch boundary when the map is
     * full. Returns the offset the mapping reached: records at or past it were not seen.
     */
    private long buildOffsetMap(List<SegmentRange> cleanable, long dirtyStart, long cleanableEnd, int maxBatchBytes,
                                CleanerTransactions transactions) {
        for (SegmentRange range : cleanable) {
            if (range.endOffset() <= dirtyStart) {
                continue;
            }
            SegmentBatchReader reader = new SegmentBatchReader(range.segment(), IO_BUFFER_BYTES, maxBatchBytes);
            for (RecordBatch batch = reader.next(); batch != null; batch = reader.next()) {
                if (batch.isControl()) {
                    transactions.onMarker(batch, null);
                    continue;
                }
                // Aborted data never shadows a record: it is about to go itself.
                boolean abortedData = transactions.onDataBatch(batch);
                if (batch.lastOffset() < dirtyStart || abortedData) {
                    continue;
                }
                if (offsetMap.size() + batch.recordCount() > offsetMap.maxEntries()) {
                    if (offsetMap.size() == 0) {
                        throw new IllegalStateException("the cleaner's offset map holds " + offsetMap.maxEntries()
                                + " keys, too few for one batch of " + batch.recordCount() + " records");
                    }
                    return batch.baseOffset();
                }
                for (Record record : batch.records()) {
                    if (record.hasKey()) {
                        offsetMap.put(record.key(), record.offset());
                    }
                }
            }
        }
        return cleanableEnd;
    }

    /** producerId → base offset of its last batch in the cleanable range. */
    private static Map<Long, Long> lastBatchOfEachProducer(List<SegmentRange> cleanable, int maxBatchBytes) {
        Map<Long, Long> last = new HashMap<>();
        for (SegmentRange range : cleanable) {
            SegmentBatchReader reader = new SegmentBatchReader(range.segment(), IO_BUFFER_BYTES, maxBatchBytes);
            for (RecordBatch batch = reader.next(); batch != null; batch = reader.next()) {
                if (batch.producerId() != RecordBatch.NO_PRODUCER_ID) {
                    last.put(batch.producerId(), batch.baseOffset());
                }
            }
        }
        return last;
    }

    /**
     * Consecutive segments whose combined size fits one segment and whose offsets fit the index's
     * 32-bit relative offsets: each group becomes one cleaned segment.
     */
    static List<List<LogSegment>> groupSegments(List<SegmentRange> ranges, LogConfig config) {
        List<List<LogSegment>> groups = new ArrayList<>();
        List<LogSegment> current = new ArrayList<>();
        long currentBytes = 0;
        long currentIndexEntries = 0;
        long maxIndexEntries = config.maxIndexBytes() / 12L; // the time index has the larger entries
        for (SegmentRange range : ranges) {
            LogSegment segment = range.segment();
            boolean fits = !current.isEmpty()
                    && currentBytes + segment.sizeBytes() <= config.segmentBytes()
                    && currentIndexEntries + segment.offsetIndex().entries() + segment.timeIndex().entries() + 2
                            <= maxIndexEntries
                    && range.endOffset() - 1 - current.get(0).baseOffset() <= Integer.MAX_VALUE;
            if (!fits && !current.isEmpty()) {
                groups.add(current);
                current = new ArrayList<>();
                currentBytes = 0;
                currentIndexEntries = 0;
            }
            current.add(segment);
            currentBytes += segment.sizeBytes();
            currentIndexEntries += segment.offsetIndex().entries() + segment.timeIndex().entries();
        }
        if (!current.isEmpty()) {
            groups.add(current);
        }
        return groups;
    }

    private void cleanGroup(Log log, List<LogSegment> group, long nowMs, long newDeleteHorizonMs,
            Map<Long, Long> lastBatchOfProducer, int maxBatchBytes, Counters counters,
            CleanerTransactions transactions) {
        LogSegment cleaned = LogSegment.create(log.dir(), group.get(0).baseOffset(), log.config(),
                LogFileNames.CLEANED_SUFFIX);
        try {
            ByteBuffer out = ByteBuffer.allocate(IO_BUFFER_BYTES);
            for (LogSegment segment : group) {
                counters.bytesRead += segment.sizeBytes();
                SegmentBatchReader reader = new SegmentBatchReader(segment, IO_BUFFER_BYTES, maxBatchBytes);
                for (RecordBatch batch = reader.next(); batch != null; batch = reader.next()) {
                    ByteBuffer kept = batch.isControl()
                            ? filterMarker(batch, nowMs, newDeleteHorizonMs, lastBatchOfProducer, counters,
                                    transactions.onMarker(batch, cleaned.txnIndex()))
                            : filterBatch(batch, nowMs, newDeleteHorizonMs, lastBatchOfProducer, counters,
                                    transactions.onDataBatch(batch));
                    if (kept == null) {
                        continue;
                    }
                    if (kept.remaining() > out.remaining()) {
                        out = drain(out, cleaned, nowMs, counters, kept.remaining());
                    }
                    out.put(kept);
                }
            }
            drain(out, cleaned, nowMs, counters, 0);
            log.replaceSegments(List.of(cleaned), group);
        } catch (RuntimeException e) {
            cleaned.close();
            cleaned.deleteFiles();
            throw e;
        }
    }

    /** Appends what {@code out} holds to the segment and returns an empty buffer of at least {@code need} bytes. */
    private static ByteBuffer drain(ByteBuffer out, LogSegment cleaned, long nowMs, Counters counters, int need) {
        out.flip();
        if (out.hasRemaining()) {
            counters.bytesWritten += out.remaining();
            cleaned.append(out, nowMs);
        }
        return need > out.capacity() ? ByteBuffer.allocate(need) : out.clear();
    }

    /**
     * The bytes to keep of one batch: the batch itself when nothing changes, a rebuilt batch holding
     * the survivors at their original offsets, or null when the batch goes entirely.
     */
    private ByteBuffer filterBatch(RecordBatch batch, long nowMs, long newDeleteHorizonMs,
            Map<Long, Long> lastBatchOfProducer, Counters counters, boolean abortedData) {
        ByteBuffer whole = batch.buffer().duplicate();
        whole.limit(batch.position() + batch.sizeInBytes()).position(batch.position());
        counters.recordsRead += batch.recordCount();
        if (abortedData) {
            counters.recordsRemoved += batch.recordCount();
            counters.abortedRecordsRemoved += batch.recordCount();
            return isLastOfProducer(batch, lastBatchOfProducer) ? rebuild(batch, List.of(), -1L) : null;
        }
        boolean horizonPassed = batch.hasDeleteHorizon() && nowMs >= batch.deleteHorizonMs();
        List<Record> records = batch.records();
        List<Record> survivors = new ArrayList<>(records.size());
        boolean keepsTombstone = false;
        for (Record record : records) {
            if (!record.hasKey()) {
                continue; // a compacted topic cannot hold keyless records; Kafka's cleaner drops them too
            }
            long latest = offsetMap.get(record.key());
            if (latest > record.offset()) {
                continue;
            }
            if (!record.hasValue()) {
                if (horizonPassed) {
                    counters.tombstonesRemoved++;
                    continue;
                }
                keepsTombstone = true;
            }
            survivors.add(record);
        }
        counters.recordsRemoved += records.size() - survivors.size();
        boolean stampHorizon = keepsTombstone && !batch.hasDeleteHorizon();
        if (survivors.size() == records.size() && !stampHorizon) {
            return whole;
        }
        if (survivors.isEmpty() && !isLastOfProducer(batch, lastBatchOfProducer)) {
            return null;
        }
        return rebuild(batch, survivors, stampHorizon ? newDeleteHorizonMs : -1L);
    }

    private static boolean isLastOfProducer(RecordBatch batch, Map<Long, Long> lastBatchOfProducer) {
        return batch.producerId() != RecordBatch.NO_PRODUCER_ID
                && lastBatchOfProducer.getOrDefault(batch.producerId(), -1L) == batch.baseOffset();
    }

    /**
     * The bytes to keep of a marker: as it is while data of its transaction remains (or it is its producer's last
     * batch); else, like a tombstone, stamped with a delete horizon by the first pass and dropped by a pass after it.
     */
    private static ByteBuffer filterMarker(RecordBatch batch, long nowMs, long newDeleteHorizonMs,
            Map<Long, Long> lastBatchOfProducer, Counters counters, boolean transactionGone) {
        ByteBuffer whole = batch.buffer().duplicate();
        whole.limit(batch.position() + batch.sizeInBytes()).position(batch.position());
        counters.recordsRead += batch.recordCount();
        if (!transactionGone || isLastOfProducer(batch, lastBatchOfProducer)) {
            return whole;
        }
        if (!batch.hasDeleteHorizon()) {
            return rebuild(batch, batch.records(), newDeleteHorizonMs);
        }
        if (nowMs >= batch.deleteHorizonMs()) {
            counters.recordsRemoved += batch.recordCount();
            counters.markersRemoved++;
            return null;
        }
        return whole;
    }

    private static ByteBuffer rebuild(RecordBatch batch, List<Record> survivors, long newDeleteHorizonMs) {
        CompressionType compression = survivors.isEmpty() ? CompressionType.NONE : batch.compressionType();
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(batch.sizeInBytes()), compression,
                batch.baseOffset())
                .partitionLeaderEpoch(batch.partitionLeaderEpoch())
                .producer(batch.producerId(), batch.producerEpoch(), batch.baseSequence())
                .transactional(batch.isTransactional())
                .control(batch.isControl())
                .lastOffsetDelta(batch.lastOffsetDelta());
        if (batch.isLogAppendTime()) {
            builder.logAppendTime(batch.maxTimestamp());
        }
        if (batch.hasDeleteHorizon()) {
            builder.deleteHorizonMs(batch.deleteHorizonMs());
        } else if (newDeleteHorizonMs >= 0) {
            builder.deleteHorizonMs(newDeleteHorizonMs);
        }
        for (Record record : survivors) {
            builder.appendRecord(record);
        }
        return builder.build();
    }

    private static final class Counters {
        long bytesRead;
        long bytesWritten;
        long recordsRead;
        long recordsRemoved;
        long tombstonesRemoved;
        long abortedRecordsRemoved;
        long markersRemoved;
    }
}
