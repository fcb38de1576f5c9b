package io.kraft.storage.log;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/**
 * A CreateTime record's timestamp lies outside [now - message.timestamp.before.max.ms,
 * now + message.timestamp.after.max.ms] (KIP-937); nothing of the append was written.
 * Kafka: INVALID_TIMESTAMP.
 */
public class InvalidTimestampException extends ApiException {
    public InvalidTimestampException(String message) {
        super(Errors.INVALID_TIMESTAMP, message);
    }
}
