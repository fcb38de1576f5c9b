package io.kraft.raft.grpc;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line per refused control-plane request, but at most one per {@value #INTERVAL_MS} ms with the count since
 * the last, so a peer sending garbage in a loop cannot flood the log. Thread-safe.
 */
final class RefusalLog {
    private static final Logger LOG = LoggerFactory.getLogger(RefusalLog.class);
    private static final long INTERVAL_MS = 10_000;

    private final int nodeId;
    private final String what;
    private long refusedSinceLog;
    private long lastLogNanos;
    private boolean logged;

    /** Refusals of raft requests out of bounds. */
    RefusalLog(int nodeId) {
        this(nodeId, "refused %d raft request(s) out of bounds");
    }

    /** @param what the line's start, with {@code %d} for the count (e.g. "refused %d raft request(s) out of bounds") */
    RefusalLog(int nodeId, String what) {
        this.nodeId = nodeId;
        this.what = what;
    }

    synchronized void refused(String kind, String problem) {
        refusedSinceLog++;
        long now = System.nanoTime();
        if (!logged || now - lastLogNanos >= TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS)) {
            LOG.warn("node {}: {}; the last, {}: {}", nodeId, String.format(what, refusedSinceLog), kind, problem);
            refusedSinceLog = 0;
            lastLogNanos = now;
            logged = true;
        }
    }
}
