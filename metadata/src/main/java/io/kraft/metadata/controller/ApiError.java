package io.kraft.metadata.controller;

import io.kraft.storage.errors.Errors;
import java.util.Objects;

/** An error code with a message for the client; {@link #NONE} for success. */
public record ApiError(Errors error, String message) {
    public static final ApiError NONE = new ApiError(Errors.NONE, null);

    public ApiError {
        Objects.requireNonNull(error, "error");
    }

    public static ApiError of(Errors error, String message) {
        return new ApiError(error, message);
    }

    public boolean isSuccess() {
        return error == Errors.NONE;
    }

    @Override
    public String toString() {
        return message == null ? error.name() : error.name() + ": " + message;
    }
}
