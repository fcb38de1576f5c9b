package io.kraft.storage.log.producer;

import io.kraft.storage.record.RecordBatch;
import java.util.List;

/**
 * What a partition knows of one idempotent or transactional producer (KIP-98): its current epoch, the metadata of
 * its last {@value #MAX_CACHED_BATCHES} batches (oldest first; empty after an epoch change by a control
 * batch), the newest batch timestamp seen, which expiry compares, the epoch of the transaction coordinator that
 * wrote its last marker (-1 before any), and the first offset of its open transaction ({@link #NO_TXN} when none).
 * Immutable: the state manager replaces entries, so readers (DescribeProducers) never see one half-updated.
 */
public record ProducerStateEntry(long producerId, short producerEpoch, List<BatchMetadata> batches,
                                 long lastTimestampMs, int coordinatorEpoch, long currentTxnFirstOffset) {
    /** Batches remembered per producer: a producer keeps at most five requests in flight per partition. */
    public static final int MAX_CACHED_BATCHES = 5;
    /** {@link #currentTxnFirstOffset()} of a producer without an open transaction. */
    public static final long NO_TXN = -1L;
    /** {@link #coordinatorEpoch()} before any marker. */
    public static final int NO_COORDINATOR_EPOCH = -1;

    /** A producer without an open transaction and without a marker yet. */
    public ProducerStateEntry(long producerId, short producerEpoch, List<BatchMetadata> batches,
                              long lastTimestampMs) {
        this(producerId, producerEpoch, batches, lastTimestampMs, NO_COORDINATOR_EPOCH, NO_TXN);
    }

    public ProducerStateEntry {
        batches = List.copyOf(batches);
        if (batches.size() > MAX_CACHED_BATCHES) {
            throw new IllegalArgumentException("producer " + producerId + " state holds " + batches.size()
                    + " batches, at most " + MAX_CACHED_BATCHES + " are kept");
        }
    }

    /** The first state of a producer: one batch at its epoch, opening a transaction at {@code txnFirstOffset}. */
    static ProducerStateEntry first(long producerId, short producerEpoch, BatchMetadata batch, long txnFirstOffset) {
        return new ProducerStateEntry(producerId, producerEpoch, List.of(batch), batch.timestampMs(),
                NO_COORDINATOR_EPOCH, txnFirstOffset);
    }

    /** Whether the producer has written transactional data not yet ended by a marker. */
    public boolean hasOpenTransaction() {
        return currentTxnFirstOffset != NO_TXN;
    }

    /** The last sequence written at the current epoch, or {@link RecordBatch#NO_SEQUENCE} if none. */
    public int lastSequence() {
        return batches.isEmpty() ? RecordBatch.NO_SEQUENCE : batches.get(batches.size() - 1).lastSequence();
    }

    /** The last offset written at the current epoch, or -1 if none. */
    public long lastOffset() {
        return batches.isEmpty() ? -1 : batches.get(batches.size() - 1).lastOffset();
    }

    /** The sequence a next batch at the current epoch must start with; wraps from Integer.MAX_VALUE to 0. */
    public int nextSequence() {
        return nextSequence(lastSequence());
    }

    static int nextSequence(int lastSequence) {
        return lastSequence == Integer.MAX_VALUE || lastSequence == RecordBatch.NO_SEQUENCE ? 0 : lastSequence + 1;
    }

    /** The cached batch a retry at {@code epoch} with this sequence range repeats, or null. */
    BatchMetadata findDuplicate(short epoch, int firstSequence, int lastSequence) {
        if (epoch != producerEpoch) {
            return null;
        }
        for (BatchMetadata batch : batches) {
            if (batch.firstSequence() == firstSequence && batch.lastSequence() == lastSequence) {
                return batch;
            }
        }
        return null;
    }

    /**
     * Whether a batch at {@code epoch} with this sequence range was written before the cached batches: a retry
     * whose metadata is no longer kept (a producer can have more than {@value #MAX_CACHED_BATCHES} batches of a
     * partition in flight across a leader change, one connection per broker). False when the cached sequences
     * wrapped past Integer.MAX_VALUE, where older and newer cannot be told apart.
     */
    boolean wroteBeforeCache(short epoch, int firstSequence, int lastSequence) {
        if (epoch != producerEpoch || batches.isEmpty() || firstSequence < 0 || firstSequence > lastSequence) {
            return false;
        }
        int oldestCached = batches.get(0).firstSequence();
        return oldestCached <= lastSequence() && lastSequence < oldestCached;
    }

    /**
     * This state after a batch at {@code epoch}: a new epoch forgets the old epoch's batches; a transactional
     * batch opens a transaction at {@code txnFirstOffset} unless one is open ({@link #NO_TXN} for other batches).
     */
    ProducerStateEntry withBatch(short epoch, BatchMetadata batch, long txnFirstOffset) {
        long lastTimestamp = Math.max(lastTimestampMs, batch.timestampMs());
        long txn = hasOpenTransaction() ? currentTxnFirstOffset : txnFirstOffset;
        if (epoch != producerEpoch) {
            return new ProducerStateEntry(producerId, epoch, List.of(batch), lastTimestamp, coordinatorEpoch, txn);
        }
        int kept = Math.min(batches.size(), MAX_CACHED_BATCHES - 1);
        BatchMetadata[] next = new BatchMetadata[kept + 1];
        for (int i = 0; i < kept; i++) {
            next[i] = batches.get(batches.size() - kept + i);
        }
        next[kept] = batch;
        return new ProducerStateEntry(producerId, epoch, List.of(next), lastTimestamp, coordinatorEpoch, txn);
    }

    /**
     * This state after a transaction marker written by the coordinator of {@code markerCoordinatorEpoch}: it
     * carries an epoch but no sequence, and ends the open transaction.
     */
    ProducerStateEntry withMarker(short epoch, long timestampMs, int markerCoordinatorEpoch) {
        long lastTimestamp = Math.max(lastTimestampMs, timestampMs);
        return new ProducerStateEntry(producerId, epoch, epoch == producerEpoch ? batches : List.of(), lastTimestamp,
                markerCoordinatorEpoch, NO_TXN);
    }
}
