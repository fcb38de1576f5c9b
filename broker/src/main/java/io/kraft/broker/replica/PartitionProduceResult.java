package io.kraft.broker.replica;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.RecordError;
import java.util.List;

/**
 * One partition's answer to a produce: an error, or the offset given to the first record written (the
 * original one for a retried duplicate), the log-append time stamped (-1 with CreateTime), and the log start;
 * a refusal may name the records at fault (KIP-467).
 */
public record PartitionProduceResult(Errors error, String errorMessage, long baseOffset, long logAppendTimeMs,
                                     long logStartOffset, List<RecordError> recordErrors) {
    public PartitionProduceResult {
        recordErrors = List.copyOf(recordErrors);
    }

    public static PartitionProduceResult succeeded(long baseOffset, long logAppendTimeMs, long logStartOffset) {
        return new PartitionProduceResult(Errors.NONE, null, baseOffset, logAppendTimeMs, logStartOffset, List.of());
    }

    public static PartitionProduceResult failed(Errors error, String errorMessage) {
        return failed(error, errorMessage, List.of());
    }

    public static PartitionProduceResult failed(Errors error, String errorMessage, List<RecordError> recordErrors) {
        return new PartitionProduceResult(error, errorMessage, -1L, -1L, -1L, recordErrors);
    }

    PartitionProduceResult withError(Errors newError, String message) {
        return new PartitionProduceResult(newError, message, baseOffset, logAppendTimeMs, logStartOffset, recordErrors);
    }
}
