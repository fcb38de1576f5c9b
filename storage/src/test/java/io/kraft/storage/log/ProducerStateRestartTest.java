package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.idempotent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.log.producer.ProducerStateEntry;
import io.kraft.storage.log.producer.ProducerStateManager;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Producer state survives a clean close and a crash: after reopening, every producer's epoch,
 * cached batches and timestamp are as before, so retries are still recognised, whether the state
 * comes from the newest snapshot, an older one (newest corrupt) or the log alone (snapshots gone).
 */
class ProducerStateRestartTest {
    private static final short EPOCH = 1;
    private static final long NOW = 5_000_000L;
    private static final LogConfig CONFIG = LogConfig.builder().segmentBytes(700).indexIntervalBytes(64).maxIndexBytes(4096)
            .fileDeleteDelayMs(0).build();

    @TempDir
    Path dir;

    /** What was written for one producer batch, to retry it later. */
    private record Sent(long producerId, int baseSequence, int count, AppendInfo answer) {
    }

    /** Three producers interleaved with plain batches over several segments. */
    private List<Sent> writeSome(Log log) {
        List<Sent> sent = new ArrayList<>();
        int[] sequences = new int[3];
        for (int round = 0; round < 9; round++) {
            for (int p = 0; p < 3; p++) {
                long producerId = 100 + p;
                int count = 1 + (round + p) % 3;
                AppendInfo answer = log.append(idempotent(producerId, EPOCH, sequences[p], count, NOW + round), 0,
                        NOW + round);
                sent.add(new Sent(producerId, sequences[p], count, answer));
                sequences[p] += count;
            }
            log.append(batch(2, NOW + round), 0, NOW + round);
        }
        assertTrue(log.numberOfSegments() > 3, "the state spans several segments and snapshots");
        return sent;
    }

    /** The last five batches of every producer are still recognised as retries, with their offsets. */
    private static void assertRetriesRecognised(Log log, List<Sent> sent) {
        long end = log.logEndOffset();
        for (long producerId = 100; producerId < 103; producerId++) {
            final long id = producerId;
            List<Sent> mine = sent.stream().filter(s -> s.producerId() == id).toList();
            for (Sent s : mine.subList(mine.size() - 5, mine.size())) {
                AppendInfo retry = log.append(idempotent(s.producerId(), EPOCH, s.baseSequence(), s.count(), NOW), 0,
                        NOW + 100);
                assertTrue(retry.duplicate(), "retry of " + s);
                assertEquals(s.answer().firstOffset(), retry.firstOffset());
                assertEquals(s.answer().lastOffset(), retry.lastOffset());
            }
        }
        assertEquals(end, log.logEndOffset());
    }

    private Log reopenUnclean() {
        return Log.open(dir, CONFIG, 0, 0, false);
    }

    @Test
    void aCleanCloseAndReopenKeepsEveryProducer() {
        Map<Long, ProducerStateEntry> before;
        List<Sent> sent;
        try (Log log = Log.open(dir, CONFIG)) {
            sent = writeSome(log);
            before = log.producerState();
        }
        try (Log log = Log.open(dir, CONFIG, 0, 0, true)) {
            assertEquals(before, log.producerState());
            assertRetriesRecognised(log, sent);
        }
    }

    @Test
    void aCrashThatTearsTheTailRebuildsTheSameState() throws Exception {
        Map<Long, ProducerStateEntry> before;
        List<Sent> sent;
        Log log = Log.open(dir, CONFIG);
        sent = writeSome(log);
        before = log.producerState();
        Path active = log.activeSegment().logFile();
        log.closeHandlers();
        try (RandomAccessFile file = new RandomAccessFile(active.toFile(), "rw")) {
            file.seek(file.length());
            file.write(new byte[] {0, 0, 0, 0, 0, 0, 0, 99, 0, 0, 1, 0, 7, 7, 7}); // half a batch
        }
        try (Log reopened = reopenUnclean()) {
            assertEquals(before, reopened.producerState());
            assertRetriesRecognised(reopened, sent);
        }
    }

    @Test
    void aCrashThatCutsTheLastBatchForgetsOnlyThatBatch() throws Exception {
        Map<Long, ProducerStateEntry> before;
        Log log = Log.open(dir, CONFIG);
        writeSome(log);
        before = log.producerState();
        int next = before.get(100L).nextSequence();
        AppendInfo last = log.append(idempotent(100, EPOCH, next, 3, NOW), 0, NOW);
        assertFalse(last.duplicate());
        Path active = log.activeSegment().logFile();
        log.closeHandlers();
        try (RandomAccessFile file = new RandomAccessFile(active.toFile(), "rw")) {
            file.setLength(file.length() - 5);
        }
        try (Log reopened = reopenUnclean()) {
            assertEquals(last.firstOffset(), reopened.logEndOffset());
            assertEquals(before, reopened.producerState());
            AppendInfo resent = reopened.append(idempotent(100, EPOCH, next, 3, NOW), 0, NOW);
            assertFalse(resent.duplicate(), "the lost batch is written again");
            assertEquals(last.firstOffset(), resent.firstOffset());
        }
    }

    @Test
    void aCrashWithEverySnapshotLostRebuildsFromTheLog() throws Exception {
        Map<Long, ProducerStateEntry> before;
        List<Sent> sent;
        Log log = Log.open(dir, CONFIG);
        sent = writeSome(log);
        before = log.producerState();
        log.closeHandlers();
        List<Long> snapshots = new ProducerStateManager(dir).snapshotOffsets();
        assertFalse(snapshots.isEmpty());
        for (long offset : snapshots) {
            Files.delete(ProducerStateManager.snapshotFile(dir, offset));
        }
        try (Log reopened = reopenUnclean()) {
            assertEquals(before, reopened.producerState());
            assertRetriesRecognised(reopened, sent);
        }
    }

    @Test
    void aCorruptNewestSnapshotIsIgnoredForAnOlderOne() throws Exception {
        Map<Long, ProducerStateEntry> before;
        List<Sent> sent;
        try (Log log = Log.open(dir, CONFIG)) {
            sent = writeSome(log);
            before = log.producerState();
        }
        ProducerStateManager files = new ProducerStateManager(dir);
        List<Long> snapshots = files.snapshotOffsets();
        long newest = snapshots.get(snapshots.size() - 1);
        Path newestFile = ProducerStateManager.snapshotFile(dir, newest);
        try (RandomAccessFile file = new RandomAccessFile(newestFile.toFile(), "rw")) {
            file.seek(file.length() / 2);
            int b = file.read();
            file.seek(file.length() / 2);
            file.write(b ^ 0x5a);
        }
        try (Log log = Log.open(dir, CONFIG, 0, 0, true)) {
            assertEquals(before, log.producerState());
            assertRetriesRecognised(log, sent);
        }
        // Every snapshot garbled (even truncated to nothing): the log alone rebuilds the state.
        for (long offset : files.snapshotOffsets()) {
            Files.write(ProducerStateManager.snapshotFile(dir, offset), new byte[offset % 2 == 0 ? 0 : 7]);
        }
        try (Log log = Log.open(dir, CONFIG, 0, 0, true)) {
            assertEquals(before, log.producerState());
        }
    }

    @Test
    void snapshotsBeyondTheRecoveredLogEndAreDiscarded() throws Exception {
        Log log = Log.open(dir, CONFIG);
        writeSome(log);
        List<LogSegment> segments = log.segments();
        LogSegment lastRolled = segments.get(segments.size() - 2);
        long lastRolledBase = lastRolled.baseOffset();
        Path lastRolledFile = lastRolled.logFile();
        Path activeFile = log.activeSegment().logFile();
        long activeBase = log.activeSegment().baseOffset();
        log.closeHandlers();
        // A crash lost the active segment and the second half of the one before it.
        Files.delete(activeFile);
        try (RandomAccessFile file = new RandomAccessFile(lastRolledFile.toFile(), "rw")) {
            file.setLength(file.length() / 2);
        }
        assertTrue(new ProducerStateManager(dir).snapshotOffsets().contains(activeBase));
        try (Log reopened = reopenUnclean()) {
            long end = reopened.logEndOffset();
            assertTrue(end < activeBase && end >= lastRolledBase);
            assertTrue(new ProducerStateManager(dir).snapshotOffsets().stream().allMatch(o -> o <= end));
            for (ProducerStateEntry entry : reopened.producerState().values()) {
                assertTrue(entry.lastOffset() < end, entry + " ends below the recovered log end " + end);
                AppendInfo next = reopened.append(idempotent(entry.producerId(), EPOCH, entry.nextSequence(), 1, NOW),
                        0, NOW);
                assertFalse(next.duplicate(), "the producer continues right after its last surviving batch");
            }
        }
    }
}
