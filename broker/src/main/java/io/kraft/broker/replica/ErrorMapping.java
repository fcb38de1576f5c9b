package io.kraft.broker.replica;

import io.kraft.storage.log.InvalidRecordException;
import io.kraft.storage.log.InvalidTimestampException;
import io.kraft.storage.log.LogStorageException;
import io.kraft.storage.log.OffsetOutOfRangeException;
import io.kraft.storage.log.RecordTooLargeException;
import io.kraft.storage.log.producer.DuplicateSequenceException;
import io.kraft.storage.log.producer.InvalidProducerEpochException;
import io.kraft.storage.log.producer.OutOfOrderSequenceException;
import io.kraft.storage.log.producer.UnknownProducerIdException;
import io.kraft.storage.record.CorruptRecordException;

/** Maps the failures of partition operations (storage's and ours) to Kafka error codes, in one place. */
public final class ErrorMapping {
    private ErrorMapping() {
    }

    public static ErrorCode toErrorCode(Throwable failure) {
        if (failure instanceof ReplicaException e) {
            return e.error();
        }
        if (failure instanceof CorruptRecordException) {
            return ErrorCode.CORRUPT_MESSAGE;
        }
        if (failure instanceof RecordTooLargeException) {
            return ErrorCode.MESSAGE_TOO_LARGE;
        }
        if (failure instanceof InvalidTimestampException) {
            return ErrorCode.INVALID_TIMESTAMP;
        }
        if (failure instanceof InvalidRecordException) {
            return ErrorCode.INVALID_RECORD;
        }
        if (failure instanceof OutOfOrderSequenceException) {
            return ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER;
        }
        if (failure instanceof InvalidProducerEpochException) {
            return ErrorCode.INVALID_PRODUCER_EPOCH;
        }
        if (failure instanceof UnknownProducerIdException) {
            return ErrorCode.UNKNOWN_PRODUCER_ID;
        }
        if (failure instanceof DuplicateSequenceException) {
            return ErrorCode.DUPLICATE_SEQUENCE_NUMBER;
        }
        if (failure instanceof OffsetOutOfRangeException) {
            return ErrorCode.OFFSET_OUT_OF_RANGE;
        }
        if (failure instanceof LogStorageException) {
            return ErrorCode.KAFKA_STORAGE_ERROR;
        }
        return ErrorCode.UNKNOWN_SERVER_ERROR;
    }
}
