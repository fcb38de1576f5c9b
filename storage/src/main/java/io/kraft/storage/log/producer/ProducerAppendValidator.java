package io.kraft.storage.log.producer;

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
 * and sequence range) is a duplicate; an older epoch is fenced; a newer epoch must start at sequence
 * 0; the same epoch must continue at the sequence after the last one; an unknown producer must start
 * at 0 (KIP-360: it then bumps its epoch and does). Control batches carry no sequence: only their
 * epoch is checked.
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
            long timestamp = batch.maxTimestamp();
            remember(producerId, entry == null
                    ? new ProducerStateEntry(producerId, epoch, List.of(), timestamp)
                    : entry.withControlBatch(epoch, timestamp));
            return null;
        }
        int lastSequence = batch.lastSequence();
        if (entry != null) {
            BatchMetadata duplicate = entry.findDuplicate(epoch, firstSequence, lastSequence);
            if (duplicate != null) {
                return duplicate;
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
        remember(producerId, entry == null ? ProducerStateEntry.first(producerId, epoch, placeholder)
                : entry.withBatch(epoch, placeholder));
        return null;
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
