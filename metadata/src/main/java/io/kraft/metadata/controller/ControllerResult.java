package io.kraft.metadata.controller;

import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Objects;

/**
 * What a control manager decided for one request: the records to append (none when the request is
 * rejected), the response to send once they commit, and the error if the request was rejected.
 *
 * @param <T> the response type; null for a rejected request or a request with nothing to answer
 */
public record ControllerResult<T>(List<MetadataRecord> records, T response, ApiError error) {
    public ControllerResult {
        records = List.copyOf(records);
        Objects.requireNonNull(error, "error");
        if (!error.isSuccess() && !records.isEmpty()) {
            throw new IllegalArgumentException("A rejected request must not emit records: " + error);
        }
    }

    public static <T> ControllerResult<T> of(List<MetadataRecord> records, T response) {
        return new ControllerResult<>(records, response, ApiError.NONE);
    }

    public static <T> ControllerResult<T> failed(Errors error, String message) {
        return new ControllerResult<>(List.of(), null, ApiError.of(error, message));
    }

    public boolean isSuccess() {
        return error.isSuccess();
    }

    /** The same rejection, typed for another response. */
    public <U> ControllerResult<U> castFailure() {
        if (isSuccess()) {
            throw new IllegalStateException("Not a failure");
        }
        return new ControllerResult<>(List.of(), null, error);
    }
}
