package io.kraft.storage.log.producer;

/**
 * Where one idempotent producer batch landed: its sequence range, its offset range and its max
 * timestamp; enough to answer a retry of it with the original offsets.
 */
public record BatchMetadata(int firstSequence, int lastSequence, long firstOffset, long lastOffset, long timestampMs) {
}
