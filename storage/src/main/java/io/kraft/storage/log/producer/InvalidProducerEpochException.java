package io.kraft.storage.log.producer;

/**
 * A batch carries an epoch older than its producer id's current one: a fenced (zombie) producer.
 * Kafka: INVALID_PRODUCER_EPOCH for produce requests.
 */
public class InvalidProducerEpochException extends ProducerStateException {
    public InvalidProducerEpochException(long producerId, String message) {
        super(producerId, message);
    }
}
