package io.kraft.storage.log.producer;

import io.kraft.storage.errors.Errors;

/**
 * A retried batch whose sequences were written before its producer's cached batches (their offsets are no longer
 * known; the Java producer completes it as a success), or one append mixing retried batches with new ones, which
 * can be neither skipped nor written as a whole (only a malformed request does that). Kafka: DUPLICATE_SEQUENCE_NUMBER.
 */
public class DuplicateSequenceException extends ProducerStateException {
    /** Below this offset lie the retried records, or -1 when unknown (a mixed append). */
    private final long writtenBelowOffset;

    public DuplicateSequenceException(long producerId, String message) {
        this(producerId, message, -1);
    }

    /** A retry of records written below {@code writtenBelowOffset} (an acks=all answer waits until it is replicated). */
    public DuplicateSequenceException(long producerId, String message, long writtenBelowOffset) {
        super(Errors.DUPLICATE_SEQUENCE_NUMBER, producerId, message);
        this.writtenBelowOffset = writtenBelowOffset;
    }

    /** The offset the retried records end before, or -1 when unknown. */
    public long writtenBelowOffset() {
        return writtenBelowOffset;
    }
}
