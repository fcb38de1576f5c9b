package io.kraft.storage.log;

/** A producer batch exceeds max.message.bytes (or an append exceeds segment.bytes); nothing was written. */
public class RecordTooLargeException extends RuntimeException {
    public RecordTooLargeException(String message) {
        super(message);
    }
}
