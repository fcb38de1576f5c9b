package io.kraft.broker.replica;

/** A partition-level request failure that maps to one Kafka error code (e.g. this broker does not lead it). */
public class ReplicaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ErrorCode error;

    public ReplicaException(ErrorCode error, String message) {
        super(message);
        this.error = error;
    }

    public ErrorCode error() {
        return error;
    }
}
