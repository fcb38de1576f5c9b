package io.kraft.storage.log.producer;

import io.kraft.storage.errors.Errors;

/**
 * A transaction marker comes from a coordinator older than the one that wrote the producer's last marker (a
 * coordinator that lost its role, KIP-98). Kafka: TRANSACTION_COORDINATOR_FENCED.
 */
public class TransactionCoordinatorFencedException extends ProducerStateException {
    public TransactionCoordinatorFencedException(long producerId, String message) {
        super(Errors.TRANSACTION_COORDINATOR_FENCED, producerId, message);
    }
}
