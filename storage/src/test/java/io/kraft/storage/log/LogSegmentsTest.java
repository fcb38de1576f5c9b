package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.followerBatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogSegmentsTest {
    private static final LogConfig CONFIG = LogConfig.builder().maxIndexBytes(1024).fileDeleteDelayMs(60_000).build();

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path dir;

    private LogSegments segments;

    /** Segments based at each of {@code bases}, each holding {@code 10} offsets from its base (the last may be empty). */
    private LogSegments segmentsAt(boolean lastEmpty, long... bases) {
        TreeMap<Long, LogSegment> map = new TreeMap<>();
        for (int i = 0; i < bases.length; i++) {
            LogSegment segment = LogSegment.create(dir, bases[i], CONFIG, "");
            if (!(lastEmpty && i == bases.length - 1)) {
                segment.append(followerBatch(bases[i], 10, 1_000L, 0), 1_000L);
            }
            map.put(bases[i], segment);
        }
        segments = new LogSegments(dir, map);
        return segments;
    }

    @AfterEach
    void close() {
        if (segments != null) {
            segments.close();
        }
    }

    private List<String> files(String suffix) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().toList();
        }
    }

    @Test
    void anOffsetBelowEverySegmentIsLookedUpInTheFirst() {
        LogSegments log = segmentsAt(false, 100, 110);
        assertEquals(100, log.holding(5).getKey());
        assertEquals(110, log.holding(115).getKey());
        assertEquals(110, log.holding(1_000).getKey(), "past the end: the active segment");
    }

    @Test
    void betweenNamesExactlyTheSegmentsHoldingAnOffsetOfTheRange() {
        LogSegments log = segmentsAt(false, 0, 10, 20, 30);
        assertEquals(List.of(10L, 20L), log.between(10, 30).stream().map(LogSegment::baseOffset).toList());
        assertEquals(List.of(0L, 10L), log.between(9, 11).stream().map(LogSegment::baseOffset).toList());
        assertEquals(List.of(30L), log.between(35, 1_000).stream().map(LogSegment::baseOffset).toList(),
                "the active segment may hold any offset past its base");
    }

    @Test
    void rollingFromAnEmptyActiveSegmentRetiresItAndTheNewOneIsActive() throws IOException {
        LogSegments log = segmentsAt(true, 0, 10);
        LogSegment next = log.roll(25, CONFIG);
        assertSame(next, log.active());
        assertEquals(List.of(0L, 25L), log.copy().stream().map(LogSegment::baseOffset).toList());
        assertEquals(List.of(LogFileNames.baseName(10) + ".log.deleted"), files(".log.deleted"));
    }

    @Test
    void retiredSegmentsKeepTheirFilesUntilTheDeleteDelayPasses() throws IOException {
        LogSegments log = segmentsAt(false, 0, 10, 20);
        log.retire(List.of(log.get(0)), CONFIG.fileDeleteDelayMs());
        assertFalse(log.contains(0));
        assertEquals(1, files(".log.deleted").size(), "renamed, still readable");
        log.deleteRetiredDue(1_000, CONFIG.fileDeleteDelayMs()); // the delay starts at the first sweep
        log.deleteRetiredDue(60_999, CONFIG.fileDeleteDelayMs());
        assertEquals(1, files(".log.deleted").size());
        log.deleteRetiredDue(61_000, CONFIG.fileDeleteDelayMs());
        assertEquals(List.of(), files(".log.deleted"));
    }

    @Test
    void truncationRetiresLaterSegmentsAndCutsTheOneHoldingTheOffset() {
        LogSegments log = segmentsAt(false, 0, 10, 20);
        LogSegment target = log.truncateTo(15, CONFIG);
        assertEquals(10, target.baseOffset());
        assertSame(target, log.active());
        assertEquals(10, target.readNextOffset(), "the batch straddling 15 goes as a whole");
        assertEquals(2, log.count());
    }

    @Test
    void aRestartAtTheBaseOfAnExistingSegmentReplacesItWithAnEmptyOne() throws IOException {
        LogSegments log = segmentsAt(false, 0, 10);
        LogSegment old = log.get(10);
        log.restartAt(10, CONFIG);
        assertEquals(1, log.count());
        assertTrue(log.active() != old && log.active().sizeBytes() == 0);
        assertEquals(List.of(LogFileNames.baseName(10) + ".log"), files(".log"));
        assertEquals(2, files(".log.deleted").size());
    }

    @Test
    void onlyInactiveSegmentsOfThisLogCanBeReplaced() {
        LogSegments log = segmentsAt(false, 0, 10);
        assertThrows(IllegalArgumentException.class, () -> log.requireInactive(List.of(log.active())));
        LogSegment stranger = LogSegment.create(dir, 5, CONFIG, LogFileNames.CLEANED_SUFFIX);
        try {
            assertThrows(IllegalArgumentException.class, () -> log.requireInactive(List.of(stranger)));
        } finally {
            stranger.deleteFiles();
        }
        log.requireInactive(List.of(log.get(0)));
    }

    @Test
    void aSwapPutsTheReplacementInAndLeavesNoSwapOrCleanedFiles() throws IOException {
        LogSegments log = segmentsAt(false, 0, 10);
        LogSegment cleaned = LogSegment.create(dir, 0, CONFIG, LogFileNames.CLEANED_SUFFIX);
        cleaned.append(followerBatch(5, 5, 1_000L, 0), 1_000L);
        log.replace(List.of(cleaned), List.of(log.get(0)), CONFIG.fileDeleteDelayMs());
        assertSame(cleaned, log.get(0));
        assertEquals(List.of(), files(".swap"));
        assertEquals(List.of(), files(".cleaned"));
        assertEquals(List.of(LogFileNames.baseName(0) + ".log", LogFileNames.baseName(10) + ".log"), files(".log"));
        assertNull(log.nextBaseOffset(10));
    }
}
