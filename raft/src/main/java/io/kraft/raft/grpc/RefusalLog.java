package io.kraft.raft.grpc;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line per refused Raft request, but at most one per {@value #INTERVAL_MS} ms with the count since the last,
 * so a peer sending garbage in a loop cannot flood the log. Thread-safe.
 */
final class RefusalLog {
    private static final Logger LOG = LoggerFactory.getLogger(RefusalLog.class);
    private static final long INTERVAL_MS = 10_000;

    private final int nodeId;
    private long refusedSinceLog;
    private long lastLogNanos;
    private boolean logged;

    RefusalLog(int nodeId) {
        this.nodeId = nodeId;
    }

    synchronized void refused(String kind, String problem) {
        refusedSinceLog++;
        long now = System.nanoTime();
        if (!logged || now - lastLogNanos >= TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS)) {
            LOG.warn("node {}: refused {} raft request(s) out of bounds; the last, {}: {}", nodeId, refusedSinceLog,
                    kind, problem);
            refusedSinceLog = 0;
            lastLogNanos = now;
            logged = true;
        }
    }
}
