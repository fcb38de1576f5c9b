package io.kraft.storage.log;

/**
 * What an append wrote: the offsets assigned, the largest batch timestamp and the base offset of the
 * batch carrying it, the log-append time stamped (or -1 for CreateTime), bytes and batches.
 */
public record AppendInfo(long firstOffset, long lastOffset, long maxTimestampMs, long offsetOfMaxTimestamp,
                         long logAppendTimeMs, int sizeBytes, int batchCount) {
}
