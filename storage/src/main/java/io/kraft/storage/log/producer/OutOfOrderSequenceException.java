package io.kraft.storage.log.producer;

import io.kraft.storage.errors.Errors;

/**
 * A batch's base sequence is not the one after its producer's last (a gap, or an old batch no longer
 * cached), or a new epoch does not start at sequence 0. Kafka: OUT_OF_ORDER_SEQUENCE_NUMBER.
 */
public class OutOfOrderSequenceException extends ProducerStateException {
    public OutOfOrderSequenceException(long producerId, String message) {
        super(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER, producerId, message);
    }
}
