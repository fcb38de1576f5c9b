package io.kraft.storage.log;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/**
 * A record breaks a rule of its topic (a record without a key in a compacted topic); nothing of the append was
 * written. Kafka: INVALID_RECORD.
 */
public class InvalidRecordException extends ApiException {
    public InvalidRecordException(String message) {
        super(Errors.INVALID_RECORD, message);
    }
}
