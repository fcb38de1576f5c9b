package io.kraft.storage.log;

/** A read or delete asked for an offset outside [logStartOffset, logEndOffset]. */
public class OffsetOutOfRangeException extends RuntimeException {
    public OffsetOutOfRangeException(String message) {
        super(message);
    }
}
