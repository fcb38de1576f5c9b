package io.kraft.storage.log.producer;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/**
 * A leader append was refused because a batch does not fit its producer's state (KIP-98); nothing
 * of the append was written. Each subclass is one Kafka error code.
 */
public abstract class ProducerStateException extends ApiException {
    private final long producerId;

    protected ProducerStateException(Errors error, long producerId, String message) {
        super(error, message);
        this.producerId = producerId;
    }

    /** The producer whose batch was refused. */
    public long producerId() {
        return producerId;
    }
}
