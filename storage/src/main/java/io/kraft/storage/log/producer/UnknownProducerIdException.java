package io.kraft.storage.log.producer;

import io.kraft.storage.errors.Errors;

/**
 * The partition holds no state for the batch's producer id (never seen, or expired) and the batch
 * does not start a sequence at 0. Kafka: UNKNOWN_PRODUCER_ID; a KIP-360 client answers it by bumping
 * its epoch and restarting its sequences at 0, which is then accepted.
 */
public class UnknownProducerIdException extends ProducerStateException {
    public UnknownProducerIdException(long producerId, String message) {
        super(Errors.UNKNOWN_PRODUCER_ID, producerId, message);
    }
}
