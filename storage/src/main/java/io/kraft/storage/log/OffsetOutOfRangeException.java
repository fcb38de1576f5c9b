package io.kraft.storage.log;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/** A read or delete asked for an offset outside [logStartOffset, logEndOffset]. */
public class OffsetOutOfRangeException extends ApiException {
    public OffsetOutOfRangeException(String message) {
        super(Errors.OFFSET_OUT_OF_RANGE, message);
    }
}
