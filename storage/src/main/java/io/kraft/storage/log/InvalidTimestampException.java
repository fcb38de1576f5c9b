package io.kraft.storage.log;

import io.kraft.storage.errors.Errors;
import java.util.List;

/**
 * A CreateTime record's timestamp lies outside [now - message.timestamp.before.max.ms,
 * now + message.timestamp.after.max.ms] (KIP-937); nothing of the append was written. Names the offending
 * records (KIP-467). Kafka: INVALID_TIMESTAMP.
 */
public class InvalidTimestampException extends InvalidRecordException {
    public InvalidTimestampException(String message) {
        this(message, List.of());
    }

    public InvalidTimestampException(String message, List<RecordError> recordErrors) {
        super(Errors.INVALID_TIMESTAMP, message, recordErrors);
    }
}
