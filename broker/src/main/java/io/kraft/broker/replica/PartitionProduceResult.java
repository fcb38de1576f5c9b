package io.kraft.broker.replica;

/**
 * One partition's answer to a produce: an error, or the offset given to the first record written (the
 * original one for a retried duplicate), the log-append time stamped (-1 with CreateTime), and the log start.
 */
public record PartitionProduceResult(ErrorCode error, String errorMessage, long baseOffset, long logAppendTimeMs,
                                     long logStartOffset) {

    public static PartitionProduceResult failed(ErrorCode error, String errorMessage) {
        return new PartitionProduceResult(error, errorMessage, -1L, -1L, -1L);
    }

    PartitionProduceResult withError(ErrorCode newError, String message) {
        return new PartitionProduceResult(newError, message, baseOffset, logAppendTimeMs, logStartOffset);
    }
}
