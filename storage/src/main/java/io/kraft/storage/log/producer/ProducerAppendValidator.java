package io.kraft.storage.log.producer;

import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.EndTransactionMarker;
import io.kraft.storage.record.RecordBatch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the batches of one leader append, in order, against the producer state without changing it
 * (KIP-98): later batches of the same append are checked against the state earlier ones would leave,
 * so an append is refused or accepted as a whole before anything is written. Reads only batch headers.
 *
 * <p>Rules per batch with a producer id: a repeat of one of the producer's cached batches (same epoch
 * and sequence range) is a duplicate; a retry of sequences written before the cached batches is refused with
 * DUPLICATE_SEQUENCE_NUMBER (written, offsets unknown); an older epoch is fenced; a newer epoch must start at sequence
 * 0; the same epoch must continue at the sequence after the last one; an unknown producer must start
 * at 0 (KIP-360: it then bumps its epoch and does). A producer with an open transaction writes only
 * transactional batches. Control batches (transaction markers, written for the coordinator) carry no sequence:
 * their epoch must not be older than the producer's, nor their coordinator epoch older than the last marker's.
 */
public final class ProducerAppendValidator {
    private final ProducerStateManager state;
    /** State after the batches checked so far, for producers this append touched; null until needed. */
    private Map<Long, ProducerStateEntry> pending;

    ProducerAppendValidator(ProducerStateManager state) {
        this.state = state;
    }

    /**
     * Checks the next batch of the append.
     *
     * @return the metadata of the batch it repeats when it is a duplicate, else null
     * @throws InvalidProducerEpochException the batch's epoch is older than its producer's
     * @throws OutOfOrderSequenceException   the batch's base sequence is not the expected one
     * @throws UnknownProducerIdException    no state for the producer and the sequence is not 0
     * @throws DuplicateSequenceException    a retry of sequences written before the cached batches
     * @throws InvalidTxnStateException      a non-transactional batch from a producer with an open transaction
     * @throws TransactionCoordinatorFencedException a marker from an older coordinator than the last marker's
     */
    public BatchMetadata validate(RecordBatch batch) {
        long producerId = batch.producerId();
        if (producerId < 0) {
            return null;
        }
        ProducerStateEntry entry = current(producerId);
        short epoch = batch.producerEpoch();
        int firstSequence = batch.baseSequence();
        if (entry != null && epoch < entry.producerEpoch()) {
            throw new InvalidProducerEpochException(producerId, "producer " + producerId + " wrote with epoch "
                    + epoch + " to log " + state.dir() + " whose current epoch for it is " + entry.producerEpoch()
                    + ": it was fenced by a newer instance");
        }
        if (batch.isControl()) {
            validateMarker(batch, entry);
            return null;
        }
        if (entry != null && entry.hasOpenTransaction() && !batch.isTransactional()) {
            throw new InvalidTxnStateException(producerId, "producer " + producerId + " wrote a non-transactional "
                    + "batch to log " + state.dir() + " while its transaction from offset "
                    + entry.currentTxnFirstOffset() + " is open");
        }
        int lastSequence = batch.lastSequence();
        if (entry != null) {
            BatchMetadata duplicate = entry.findDuplicate(epoch, firstSequence, lastSequence);
            if (duplicate != null) {
                return duplicate;
            }
            if (entry.wroteBeforeCache(epoch, firstSequence, lastSequence)) {
                // Its records are in the log but their offsets are no longer known: DUPLICATE_SEQUENCE_NUMBER, which
                // the Java producer completes as a success (KIP-98), not OUT_OF_ORDER_SEQUENCE_NUMBER, which it
                // retries until its delivery timeout fails records that were written.
                throw new DuplicateSequenceException(producerId, "producer " + producerId + " epoch " + epoch
                        + " retried sequences " + firstSequence + ".." + lastSequence + " to log " + state.dir()
                        + ", written before its last " + ProducerStateEntry.MAX_CACHED_BATCHES + " batches (from "
                        + entry.batches().get(0).firstSequence() + ")", entry.batches().get(0).firstOffset());
            }
        }
        if (entry == null) {
            if (firstSequence != 0) {
                throw new UnknownProducerIdException(producerId, "log " + state.dir() + " has no state for producer "
                        + producerId + " (epoch " + epoch + "), whose batch starts at sequence " + firstSequence
                        + " instead of 0");
            }
        } else if (epoch != entry.producerEpoch()) {
            if (firstSequence != 0) {
                throw new OutOfOrderSequenceException(producerId, "producer " + producerId + " starts epoch " + epoch
                        + " in log " + state.dir() + " at sequence " + firstSequence + ", expected 0");
            }
        } else {
            int expected = entry.nextSequence();
            if (firstSequence != expected) {
                throw new OutOfOrderSequenceException(producerId, "producer " + producerId + " epoch " + epoch
                        + " sent sequence " + firstSequence + " to log " + state.dir() + ", expected " + expected
                        + " (last written " + entry.lastSequence() + ")");
            }
        }
        // Offsets are assigned later; later batches of this append only need the sequences.
        BatchMetadata placeholder = new BatchMetadata(firstSequence, lastSequence, -1, -1, batch.maxTimestamp());
        // Only whether a transaction is open matters to later batches, not where it starts.
        long txnFirstOffset = batch.isTransactional() ? 0 : ProducerStateEntry.NO_TXN;
        remember(producerId, entry == null ? ProducerStateEntry.first(producerId, epoch, placeholder, txnFirstOffset)
                : entry.withBatch(epoch, placeholder, txnFirstOffset));
        return null;
    }

    private void validateMarker(RecordBatch batch, ProducerStateEntry entry) {
        long producerId = batch.producerId();
        EndTransactionMarker marker;
        try {
            marker = EndTransactionMarker.fromBatch(batch);
        } catch (CorruptRecordException e) {
            throw new CorruptRecordException("control batch for producer " + producerId + " to log " + state.dir()
                    + " is no transaction marker: " + e.getMessage());
        }
        if (entry != null && marker.coordinatorEpoch() < entry.coordinatorEpoch()) {
            throw new TransactionCoordinatorFencedException(producerId, marker.type() + " marker for producer "
                    + producerId + " to log " + state.dir() + " comes from coordinator epoch "
                    + marker.coordinatorEpoch() + ", older than the " + entry.coordinatorEpoch() + " of its last marker");
        }
        long timestamp = batch.maxTimestamp();
        remember(producerId, entry == null
                ? new ProducerStateEntry(producerId, batch.producerEpoch(), List.of(), timestamp,
                        marker.coordinatorEpoch(), ProducerStateEntry.NO_TXN)
                : entry.withMarker(batch.producerEpoch(), timestamp, marker.coordinatorEpoch()));
    }

    private ProducerStateEntry current(long producerId) {
        if (pending != null) {
            ProducerStateEntry entry = pending.get(producerId);
            if (entry != null) {
                return entry;
            }
        }
        return state.entry(producerId);
    }

    private void remember(long producerId, ProducerStateEntry entry) {
        if (pending == null) {
            pending = new HashMap<>(4);
        }
        pending.put(producerId, entry);
    }
}
