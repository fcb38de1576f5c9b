package io.kraft.storage.log.producer;

/**
 * A leader append was refused because a batch does not fit its producer's state (KIP-98); nothing
 * of the append was written. Each subclass is one Kafka error code.
 */
public abstract class ProducerStateException extends RuntimeException {
    private final long producerId;

    protected ProducerStateException(long producerId, String message) {
        super(message);
        this.producerId = producerId;
    }

    /** The producer whose batch was refused. */
    public long producerId() {
        return producerId;
    }
}
