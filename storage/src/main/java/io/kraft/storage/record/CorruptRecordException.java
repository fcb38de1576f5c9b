package io.kraft.storage.record;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/** Thrown when bytes that should hold a record batch fail validation (size, magic, CRC, counts). */
public class CorruptRecordException extends ApiException {
    public CorruptRecordException(String message) {
        super(Errors.CORRUPT_MESSAGE, message);
    }

    public CorruptRecordException(String message, Throwable cause) {
        super(Errors.CORRUPT_MESSAGE, message, cause);
    }
}
