package io.kraft.broker.group;

/** A {@code __consumer_offsets} record whose key or value cannot be read. */
public final class CorruptCoordinatorRecordException extends RuntimeException {
    public CorruptCoordinatorRecordException(String message) {
        super(message);
    }
}
