package io.kraft.storage.log;

/** An offset index entry: a batch's last offset and the file position where that batch starts. */
public record OffsetPosition(long offset, int position) {
}
