package io.kraft.storage.record;

/** Thrown when bytes that should hold a record batch fail validation (size, magic, CRC, counts). */
public class CorruptRecordException extends RuntimeException {
    public CorruptRecordException(String message) {
        super(message);
    }

    public CorruptRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
