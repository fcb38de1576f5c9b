package io.kraft.broker.group;

import io.kraft.storage.errors.Errors;
import java.util.Objects;

/**
 * A {@code __consumer_offsets} append or read that failed, with the coordinator error a client should see:
 * NOT_COORDINATOR when this broker no longer leads the partition, COORDINATOR_NOT_AVAILABLE otherwise.
 */
public final class CoordinatorLogException extends RuntimeException {
    private final Errors error;

    public CoordinatorLogException(Errors error, String message) {
        super(message);
        this.error = Objects.requireNonNull(error, "error");
    }

    public Errors error() {
        return error;
    }
}
