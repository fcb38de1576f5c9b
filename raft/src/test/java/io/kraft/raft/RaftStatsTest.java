package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Commit latency over the last two 30 s windows, log end and snapshot age on a manual clock. */
class RaftStatsTest {
    private static final long MS = 1_000_000L;

    @Test
    void commitLatencyCoversTheLastTwoWindowsThenForgets() {
        AtomicLong now = new AtomicLong(5 * MS);
        RaftStats stats = new RaftStats(now::get);
        assertEquals(0, stats.commitLatencyAvgMs());
        stats.recordCommit(2 * MS);
        stats.recordCommit(6 * MS);
        assertEquals(4, stats.commitLatencyAvgMs(), 1e-9);
        assertEquals(6, stats.commitLatencyMaxMs(), 1e-9);

        now.addAndGet(RaftStats.WINDOW_NANOS); // the previous window still counts
        stats.recordCommit(10 * MS);
        assertEquals(6, stats.commitLatencyAvgMs(), 1e-9);
        assertEquals(10, stats.commitLatencyMaxMs(), 1e-9);

        now.addAndGet(RaftStats.WINDOW_NANOS); // the first window is gone
        assertEquals(10, stats.commitLatencyAvgMs(), 1e-9);
        now.addAndGet(3 * RaftStats.WINDOW_NANOS); // a long quiet spell forgets everything
        assertEquals(0, stats.commitLatencyAvgMs());
        assertEquals(0, stats.commitLatencyMaxMs());
    }

    @Test
    void logEndAndSnapshotAge() {
        AtomicLong now = new AtomicLong(0);
        RaftStats stats = new RaftStats(now::get);
        assertEquals(-1, stats.latestSnapshotAgeMs());
        stats.logEnd(42, 3);
        assertEquals(42, stats.logEndOffset());
        assertEquals(3, stats.logEndEpoch());
        stats.snapshotTaken();
        now.addAndGet(1_500 * MS);
        assertEquals(1_500, stats.latestSnapshotAgeMs());
    }
}
