package io.kraft.storage.log;

/** A timestamp and the offset it belongs to: a time index entry, or a ListOffsets-style answer. */
public record TimestampOffset(long timestampMs, long offset) {
}
