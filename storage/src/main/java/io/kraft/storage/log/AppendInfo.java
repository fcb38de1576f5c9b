package io.kraft.storage.log;

/**
 * What an append wrote: the offsets assigned, the largest batch timestamp and the base offset of the
 * batch carrying it, the log-append time stamped (or -1 for CreateTime), bytes and batches.
 *
 * <p>When {@code duplicate} is true the append repeated batches an idempotent producer had already
 * written (a retry, KIP-98): nothing was written ({@code sizeBytes} and {@code batchCount} are 0),
 * and the offsets and timestamp are those of the original batches, which is what the producer is
 * answered with.
 */
public record AppendInfo(long firstOffset, long lastOffset, long maxTimestampMs, long offsetOfMaxTimestamp,
                         long logAppendTimeMs, int sizeBytes, int batchCount, boolean duplicate) {
}
