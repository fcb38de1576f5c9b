package io.kraft.storage.log;

/**
 * Where a log starts and ends, as readers without the lock see it. Written only under the log's lock, each bound
 * published as one volatile value: the end as a {@link LogEnd} (next offset, segment and byte position together).
 */
final class LogBounds {
    private volatile LogEnd end;
    private volatile long startOffset;

    LogBounds(LogEnd end, long startOffset) {
        this.end = end;
        this.startOffset = startOffset;
    }

    LogEnd end() {
        return end;
    }

    /** The offset the next appended record gets. */
    long endOffset() {
        return end.nextOffset();
    }

    long startOffset() {
        return startOffset;
    }

    void setEnd(LogEnd end) {
        this.end = end;
    }

    void setStartOffset(long startOffset) {
        this.startOffset = startOffset;
    }
}
