package io.kraft.raft;

import java.util.function.LongSupplier;

/**
 * A Raft node's figures for its metrics (Kafka's {@code raft-metrics} log end offset and epoch and commit latency,
 * and the age of the latest snapshot): written by the raft thread, read by any thread. Commit latency is the time
 * from an append to its commit on the leader, averaged and maximised over the last two 30 s windows, as Kafka's
 * sampled statistics are.
 */
public final class RaftStats {
    static final long WINDOW_NANOS = 30_000_000_000L;

    private final LongSupplier nanoClock;
    private volatile long logEndOffset;
    private volatile int logEndEpoch;
    private volatile long latestSnapshotAtNanos = -1;
    /** Guarded by this: the current window and the one before it. */
    private long windowStartNanos;
    private final long[] count = new long[2];
    private final long[] sumNanos = new long[2];
    private final long[] maxNanos = new long[2];

    public RaftStats(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.windowStartNanos = nanoClock.getAsLong();
    }

    void logEnd(long offset, int epoch) {
        logEndOffset = offset;
        logEndEpoch = epoch;
    }

    /** This node made or loaded a snapshot now. */
    void snapshotTaken() {
        latestSnapshotAtNanos = nanoClock.getAsLong();
    }

    synchronized void recordCommit(long latencyNanos) {
        roll();
        count[0]++;
        sumNanos[0] += latencyNanos;
        maxNanos[0] = Math.max(maxNanos[0], latencyNanos);
    }

    public long logEndOffset() {
        return logEndOffset;
    }

    public int logEndEpoch() {
        return logEndEpoch;
    }

    /** Milliseconds since this node made or loaded its latest snapshot, or -1 if it has none. */
    public long latestSnapshotAgeMs() {
        long at = latestSnapshotAtNanos;
        return at < 0 ? -1 : (nanoClock.getAsLong() - at) / 1_000_000;
    }

    /** Mean commit latency in ms over the last two windows; 0 without commits (not the leader). */
    public synchronized double commitLatencyAvgMs() {
        roll();
        long n = count[0] + count[1];
        return n == 0 ? 0 : (sumNanos[0] + sumNanos[1]) / 1e6 / n;
    }

    /** Longest commit latency in ms over the last two windows. */
    public synchronized double commitLatencyMaxMs() {
        roll();
        return Math.max(maxNanos[0], maxNanos[1]) / 1e6;
    }

    private void roll() {
        long now = nanoClock.getAsLong();
        long windows = (now - windowStartNanos) / WINDOW_NANOS;
        if (windows <= 0) {
            return;
        }
        if (windows == 1) {
            count[1] = count[0];
            sumNanos[1] = sumNanos[0];
            maxNanos[1] = maxNanos[0];
        } else {
            count[1] = 0;
            sumNanos[1] = 0;
            maxNanos[1] = 0;
        }
        count[0] = 0;
        sumNanos[0] = 0;
        maxNanos[0] = 0;
        windowStartNanos += windows * WINDOW_NANOS;
    }
}
