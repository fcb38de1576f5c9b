package io.kraft.storage.log;

/**
 * Where a log ends, published as one value after each append so a lock-free reader sees a consistent triple: the
 * next offset, and the active segment and byte position holding it.
 */
record LogEnd(long nextOffset, long segmentBaseOffset, int segmentPosition) {
}
