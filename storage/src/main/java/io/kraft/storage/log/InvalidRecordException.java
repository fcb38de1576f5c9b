package io.kraft.storage.log;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;
import java.util.List;

/**
 * A record breaks a rule of its topic (a record without a key in a compacted topic); nothing of the append was
 * written. Names the offending records, which a produce response returns as record errors (KIP-467).
 * Kafka: INVALID_RECORD.
 */
public class InvalidRecordException extends ApiException {
    private final transient List<RecordError> recordErrors;

    public InvalidRecordException(String message) {
        this(message, List.of());
    }

    public InvalidRecordException(String message, List<RecordError> recordErrors) {
        this(Errors.INVALID_RECORD, message, recordErrors);
    }

    protected InvalidRecordException(Errors error, String message, List<RecordError> recordErrors) {
        super(error, message);
        this.recordErrors = List.copyOf(recordErrors);
    }

    /** The records at fault in append order, each by its index in its batch; empty when not known. */
    public List<RecordError> recordErrors() {
        return recordErrors == null ? List.of() : recordErrors;
    }
}
