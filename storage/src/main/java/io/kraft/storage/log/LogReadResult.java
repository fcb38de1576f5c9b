package io.kraft.storage.log;

/**
 * A log read: the bytes from the batch holding {@code fetchOffset} (empty at the log end), and the log
 * bounds seen at read time.
 */
public record LogReadResult(long fetchOffset, FileSlice records, long logStartOffset, long logEndOffset) {
}
