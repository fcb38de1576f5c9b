package io.kraft.storage.log;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/** A producer batch exceeds max.message.bytes (or an append exceeds segment.bytes); nothing was written. */
public class RecordTooLargeException extends ApiException {
    public RecordTooLargeException(String message) {
        super(Errors.MESSAGE_TOO_LARGE, message);
    }
}
