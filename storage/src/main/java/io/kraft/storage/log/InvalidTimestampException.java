package io.kraft.storage.log;

/**
 * A CreateTime record's timestamp lies outside [now - message.timestamp.before.max.ms,
 * now + message.timestamp.after.max.ms] (KIP-937); nothing of the append was written.
 * Kafka: INVALID_TIMESTAMP.
 */
public class InvalidTimestampException extends RuntimeException {
    public InvalidTimestampException(String message) {
        super(message);
    }
}
