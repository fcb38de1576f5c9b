package io.kraft.storage.log;

import io.kraft.storage.log.producer.BatchMetadata;
import io.kraft.storage.log.producer.CompletedTxn;
import io.kraft.storage.log.producer.DuplicateSequenceException;
import io.kraft.storage.log.producer.ProducerAppendValidator;
import io.kraft.storage.log.producer.ProducerStateEntry;
import io.kraft.storage.log.producer.ProducerStateManager;
import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A log's idempotent and transactional producers (KIP-98) as the log uses them: a leader append is checked against
 * them before anything is written (a retry is answered with its original offsets), written batches update them, and
 * a reopen or truncation rebuilds them from the newest {@code .snapshot} at or below the log end plus the batch
 * headers after it. Each ABORT marker written adds an entry to the transaction index of the segment holding it,
 * and a rebuild over segments whose transaction index recovery reset adds theirs again. Runs under the log's lock.
 */
final class LogProducerState {
    private final Path dir;
    private final ProducerStateManager manager;

    LogProducerState(Path dir) {
        this.dir = dir;
        this.manager = new ProducerStateManager(dir);
    }

    /**
     * Loads the newest usable snapshot at or below {@code endOffset} (dropping newer ones) and replays the batch
     * headers from it up to {@code endOffset}; with no snapshot, from the first segment.
     */
    void rebuild(LogSegments segments, long endOffset) {
        rebuild(segments, endOffset, Long.MAX_VALUE);
    }

    /**
     * As {@link #rebuild(LogSegments, long)}, and rebuilds the transaction index of every segment whose index
     * recovery reset: the replay then starts from a snapshot at or below {@code txnIndexRebuildFrom}, the first
     * such segment, so the transactions open there (and the last stable offsets the entries record) are known.
     */
    void rebuild(LogSegments segments, long endOffset, long txnIndexRebuildFrom) {
        OptionalLong snapshot = manager.loadSnapshot(Math.min(endOffset, txnIndexRebuildFrom));
        long from = snapshot.orElse(0);
        for (LogSegment segment : segments.inOrder()) {
            if (segment.baseOffset() >= endOffset) {
                break;
            }
            Long nextBase = segments.nextBaseOffset(segment.baseOffset());
            if (nextBase != null && nextBase <= from) {
                continue;
            }
            boolean indexAborts = segment.txnIndexNeedsRebuild();
            segment.forEachBatchHeaderFrom(from, batch -> {
                if (batch.baseOffset() < endOffset) {
                    CompletedTxn completed = manager.update(batch);
                    if (indexAborts) {
                        indexIfAborted(completed, segment);
                    }
                }
            });
        }
        for (LogSegment segment : segments.inOrder()) {
            segment.txnIndexRebuilt();
        }
    }

    private void indexIfAborted(CompletedTxn completed, LogSegment segment) {
        if (completed != null && completed.aborted()) {
            segment.txnIndex().append(new AbortedTxn(completed.producerId(), completed.firstOffset(),
                    completed.lastOffset(), manager.lastStableOffsetAfter(completed)));
        }
    }

    /**
     * Checks every producer batch of a leader append against the producer state before anything is written.
     *
     * @return the answer for an append that only repeats batches already written, else null
     * @throws DuplicateSequenceException the append mixes retried batches with new ones
     */
    AppendInfo findDuplicate(ByteBuffer records, LogConfig config) {
        ProducerAppendValidator validator = null;
        BatchMetadata first = null;
        BatchMetadata last = null;
        BatchMetadata newest = null;
        int batches = 0;
        int duplicates = 0;
        long duplicateProducer = -1;
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            p += batch.sizeInBytes();
            batches++;
            if (batch.producerId() < 0) {
                continue;
            }
            if (validator == null) {
                validator = manager.validator();
            }
            BatchMetadata duplicate = validator.validate(batch);
            if (duplicate != null) {
                duplicates++;
                duplicateProducer = batch.producerId();
                first = first == null || duplicate.firstOffset() < first.firstOffset() ? duplicate : first;
                last = last == null || duplicate.lastOffset() > last.lastOffset() ? duplicate : last;
                newest = newest == null || duplicate.timestampMs() > newest.timestampMs() ? duplicate : newest;
            }
        }
        if (duplicates == 0) {
            return null;
        }
        if (duplicates < batches) {
            throw new DuplicateSequenceException(duplicateProducer, "append to log " + dir + " mixes " + duplicates
                    + " batches already written (producer " + duplicateProducer + ") with " + (batches - duplicates)
                    + " new ones");
        }
        return new AppendInfo(first.firstOffset(), last.lastOffset(), newest.timestampMs(), newest.firstOffset(),
                config.logAppendTime() ? newest.timestampMs() : RecordBatch.NO_TIMESTAMP, 0, 0, true);
    }

    /**
     * Applies written batches (offsets assigned) to the producer state; an ABORT marker among them adds its
     * transaction to the index of {@code segment}, the one they were written to.
     */
    void update(ByteBuffer records, LogSegment segment) {
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            if (batch.producerId() >= 0) {
                indexIfAborted(manager.update(batch), segment);
            }
            p += batch.sizeInBytes();
        }
    }

    /**
     * The last stable offset for a high watermark (KIP-98): the first offset of the oldest transaction still open
     * or whose marker is not below the watermark, raised to the log start, else the watermark.
     */
    long lastStableOffset(long highWatermark, long logStartOffset) {
        if (manager.firstUnstableOffset() == Long.MAX_VALUE) {
            return highWatermark; // no transaction: one volatile read
        }
        manager.onHighWatermark(highWatermark);
        long firstUnstable = manager.firstUnstableOffset();
        return firstUnstable == Long.MAX_VALUE ? highWatermark
                : Math.min(highWatermark, Math.max(firstUnstable, logStartOffset));
    }

    /** The first offset of the oldest unstable transaction (see {@link #lastStableOffset}), or Long.MAX_VALUE. */
    long firstUnstableOffset() {
        return manager.firstUnstableOffset();
    }

    Map<Long, ProducerStateEntry> producers() {
        return manager.producers();
    }

    Optional<ProducerStateEntry> producer(long producerId) {
        return manager.producer(producerId);
    }

    /** Forgets producers idle for {@code expirationMs}; returns how many. */
    int removeExpired(long nowMs, long expirationMs) {
        return manager.removeExpired(nowMs, expirationMs);
    }

    /** Snapshots the state as of {@code offset}, the log end it is valid at. */
    void writeSnapshot(long offset, boolean durable) {
        manager.writeSnapshot(offset, durable);
    }

    /** Deletes the snapshots of segments that are gone (below the first segment's base). */
    void deleteSnapshotsBelow(long offset) {
        manager.deleteSnapshotsBelow(offset);
    }

    void deleteSnapshot(long offset) {
        manager.deleteSnapshot(offset);
    }

    /** Forgets every producer and deletes every snapshot (the log restarts empty). */
    void clear() {
        manager.clear();
        manager.deleteAllSnapshots();
    }
}
