package io.kraft.storage.errors;

import java.util.Objects;

/**
 * A failure that a Kafka client is told about with a specific error code: every module's expected failures extend
 * it, so mapping a failure to its code is {@link Errors#forException}, not a chain of instanceof checks.
 */
public class ApiException extends RuntimeException {
    private final Errors error;

    public ApiException(Errors error, String message) {
        super(message);
        this.error = Objects.requireNonNull(error, "error");
    }

    public ApiException(Errors error, String message, Throwable cause) {
        super(message, cause);
        this.error = Objects.requireNonNull(error, "error");
    }

    /** The error code a response carries for this failure. */
    public Errors error() {
        return error;
    }
}
