package io.kraft.storage.log.producer;

/**
 * A transaction a marker ended in a partition: its producer, the first offset it wrote (the marker's own offset
 * when it wrote nothing here), the marker's offset, and whether it aborted.
 */
public record CompletedTxn(long producerId, long firstOffset, long lastOffset, boolean aborted) {
}
