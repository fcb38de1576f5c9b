package io.kraft.storage.log.producer;

import io.kraft.storage.errors.Errors;

/**
 * A batch carries an epoch older than its producer id's current one: a fenced (zombie) producer.
 * Kafka: INVALID_PRODUCER_EPOCH for produce requests.
 */
public class InvalidProducerEpochException extends ProducerStateException {
    public InvalidProducerEpochException(long producerId, String message) {
        super(Errors.INVALID_PRODUCER_EPOCH, producerId, message);
    }
}
