package io.kraft.broker.producer;

/** No producer id could be handed out now (no block from the controller in time); a retry may succeed. */
public final class ProducerIdsUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ProducerIdsUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
