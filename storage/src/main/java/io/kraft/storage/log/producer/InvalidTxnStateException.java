package io.kraft.storage.log.producer;

import io.kraft.storage.errors.Errors;

/**
 * A producer with an open transaction in the partition wrote a non-transactional batch (KIP-98). Kafka:
 * INVALID_TXN_STATE.
 */
public class InvalidTxnStateException extends ProducerStateException {
    public InvalidTxnStateException(long producerId, String message) {
        super(Errors.INVALID_TXN_STATE, producerId, message);
    }
}
