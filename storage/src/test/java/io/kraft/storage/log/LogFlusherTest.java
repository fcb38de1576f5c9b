package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayDeque;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When data becomes durable, and that the recovery point never claims more than the disk holds. */
class LogFlusherTest {
    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path dir;

    private static LogConfig.Builder small() {
        return LogConfig.builder().segmentBytes(1024).indexIntervalBytes(100).maxIndexBytes(1024).fileDeleteDelayMs(0);
    }

    /** Appends 4-record batches until the log has rolled once; returns the base of the new active segment. */
    private static long appendUntilRolled(Log log) {
        while (log.numberOfSegments() < 2) {
            log.append(batch(4, 1_000), 0, 1_000);
        }
        return log.activeSegment().baseOffset();
    }

    @Test
    void aRollFlushThatRunsAfterATruncationLeavesTheRecoveryPointAlone() {
        ArrayDeque<Runnable> queued = new ArrayDeque<>();
        try (Log log = Log.open(dir, small().build(), 0, 0, false, queued::add)) {
            long rolledAt = appendUntilRolled(log);
            assertEquals(1, queued.size(), "the rolled segment's fsync waits on the executor");
            log.truncateTo(4);
            queued.poll().run();
            assertEquals(0, log.recoveryPoint(), "the fsync of data since cut away does not count");
            assertTrue(rolledAt > log.logEndOffset());
        }
    }

    @Test
    void flushMsFlushesOnTheFirstCallAfterThatMuchTime() {
        try (Log log = Log.open(dir, small().flushMs(1_000).build())) {
            log.maybeFlush(10_000); // starts the flush.ms clock
            log.append(batch(3, 1_000), 0, 10_001);
            log.maybeFlush(10_999);
            assertEquals(0, log.recoveryPoint());
            log.maybeFlush(11_000);
            assertEquals(3, log.recoveryPoint());
        }
    }

    @Test
    void anExplicitFlushMovesTheRecoveryPointToTheEnd() {
        try (Log log = Log.open(dir, small().build(), 0, 0, false, task -> { })) {
            appendUntilRolled(log);
            log.append(batch(2, 1_000), 0, 1_000);
            log.flush();
            assertEquals(log.logEndOffset(), log.recoveryPoint());
        }
    }
}
