package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.offsets;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.log.producer.ProducerStateManager;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cleaner's swap-in point: replacing segments atomically, and completing or discarding a swap on open. */
class LogSwapTest {
    @TempDir
    Path dir;

    private static final LogConfig CONFIG = LogConfig.builder().indexIntervalBytes(50).fileDeleteDelayMs(0).build();

    /** A log of three segments: [0..5], [6..11], [12..14 active]; returns the batches of the first two. */
    private static Log threeSegments(Path dir) {
        Log log = Log.open(dir, CONFIG);
        for (int i = 0; i < 6; i++) {
            log.append(batch(2, i), 0, 1);
            if (i % 3 == 2) {
                log.roll();
            }
        }
        log.append(batch(3, 9), 0, 1);
        return log;
    }

    /** Writes a ".cleaned" segment holding only the batches at the given base offsets. */
    private static LogSegment cleaned(Log log, long base, long... keep) throws Exception {
        LogSegment segment = LogSegment.create(log.dir(), base, CONFIG, LogFileNames.CLEANED_SUFFIX);
        for (long offset : keep) {
            ByteBuffer bytes = log.read(offset, 1, true).records().readFully();
            segment.append(bytes, 1);
        }
        return segment;
    }

    @Test
    void replacesSegmentsKeepingOffsetsWithGaps() throws Exception {
        try (Log log = threeSegments(dir)) {
            List<LogSegment> old = log.segments().subList(0, 2);
            LogSegment replacement = cleaned(log, 0, 2, 8);
            assertEquals(List.of(6L, 12L), new ProducerStateManager(dir).snapshotOffsets());
            log.replaceSegments(List.of(replacement), old);
            assertEquals(List.of(0L, 12L), log.segments().stream().map(LogSegment::baseOffset).toList());
            assertEquals(List.of(12L), new ProducerStateManager(dir).snapshotOffsets(),
                    "the snapshot of the segment merged away goes with it");
            assertEquals(List.of(2L, 3L, 8L, 9L, 12L, 13L, 14L), offsets(TestBatches.readAll(log)));
            assertEquals(List.of(8L, 9L), offsets(log.read(5, 1, true).records().readFully()), "reads across gaps");
            try (var files = Files.list(dir)) {
                assertTrue(files.noneMatch(f -> f.toString().endsWith(".cleaned") || f.toString().endsWith(".swap")
                        || f.toString().endsWith(".deleted")));
            }
        }
        try (Log log = Log.open(dir, CONFIG)) {
            assertEquals(List.of(2L, 3L, 8L, 9L, 12L, 13L, 14L), offsets(TestBatches.readAll(log)));
        }
    }

    @Test
    void openDiscardsAnUnfinishedCleanedSegment() throws Exception {
        try (Log log = threeSegments(dir)) {
            cleaned(log, 0, 2).close();
        }
        assertTrue(Files.exists(dir.resolve("00000000000000000000.log.cleaned")));
        try (Log log = Log.open(dir, CONFIG)) {
            assertEquals(15, offsets(TestBatches.readAll(log)).size());
            assertFalse(Files.exists(dir.resolve("00000000000000000000.log.cleaned")));
        }
    }

    @Test
    void openCompletesASwapInterruptedAfterTheRenameToSwap() throws Exception {
        try (Log log = threeSegments(dir)) {
            LogSegment replacement = cleaned(log, 0, 2, 8);
            replacement.onBecomeInactive();
            replacement.flush();
            replacement.changeFileSuffixes(LogFileNames.CLEANED_SUFFIX, LogFileNames.SWAP_SUFFIX);
            replacement.close();
            // crash here: the old segments are still in place next to the .swap file
        }
        try (Log log = Log.open(dir, CONFIG)) {
            assertEquals(List.of(0L, 12L), log.segments().stream().map(LogSegment::baseOffset).toList());
            assertEquals(List.of(2L, 3L, 8L, 9L, 12L, 13L, 14L), offsets(TestBatches.readAll(log)));
            assertFalse(Files.exists(dir.resolve("00000000000000000006.log")));
        }
    }
}
