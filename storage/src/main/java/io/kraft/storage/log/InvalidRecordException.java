package io.kraft.storage.log;

/**
 * A record breaks a rule of its topic (a record without a key in a compacted topic); nothing of the append was
 * written. Kafka: INVALID_RECORD.
 */
public class InvalidRecordException extends RuntimeException {
    public InvalidRecordException(String message) {
        super(message);
    }
}
