package io.kraft.storage.log;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Segments taken out of a log (renamed {@code .deleted}) whose files stay for the file delete delay,
 * so reads that already hold a slice of them finish. The delay starts at the first sweep that sees
 * a segment, since removals such as truncation carry no clock. Not thread-safe: the log's lock guards it.
 */
final class RetiredSegments {
    private static final class Retired {
        final LogSegment segment;
        long dueMs = -1;

        Retired(LogSegment segment) {
            this.segment = segment;
        }
    }

    private final List<Retired> retired = new ArrayList<>();

    /** Deletes the segment's files now when there is no delay, else queues them. */
    void add(LogSegment segment, long fileDeleteDelayMs) {
        if (fileDeleteDelayMs == 0) {
            segment.deleteFiles();
        } else {
            retired.add(new Retired(segment));
        }
    }

    /** Deletes the files whose delay has passed by {@code nowMs}. */
    void deleteDue(long nowMs, long fileDeleteDelayMs) {
        Iterator<Retired> it = retired.iterator();
        while (it.hasNext()) {
            Retired r = it.next();
            if (r.dueMs < 0) {
                r.dueMs = nowMs + fileDeleteDelayMs;
            }
            if (nowMs >= r.dueMs) {
                r.segment.deleteFiles();
                it.remove();
            }
        }
    }

    /** Deletes every queued file (the log is closing). */
    void deleteAll() {
        for (Retired r : retired) {
            r.segment.deleteFiles();
        }
        retired.clear();
    }

    /** Releases handles without deleting (failed disk); the next open removes the files. */
    void closeHandlers() {
        for (Retired r : retired) {
            r.segment.closeHandlers();
        }
        retired.clear();
    }
}
