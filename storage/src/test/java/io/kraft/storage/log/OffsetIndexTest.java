package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetIndexTest {
    @TempDir
    Path dir;

    @Test
    void preallocatesAndFindsTheFloorEntry() throws Exception {
        Path file = dir.resolve("00000000000000000100.index");
        try (OffsetIndex index = new OffsetIndex(file, 100, 84)) {
            assertEquals(80, Files.size(file), "rounded down to whole entries and preallocated");
            assertEquals(10, index.maxEntries());
            index.append(105, 400);
            index.append(110, 900);
            index.append(120, 1500);
            assertEquals(new OffsetPosition(100, 0), index.lookup(104), "below the first entry: segment start");
            assertEquals(new OffsetPosition(105, 400), index.lookup(105));
            assertEquals(new OffsetPosition(110, 900), index.lookup(119));
            assertEquals(new OffsetPosition(120, 1500), index.lookup(Long.MAX_VALUE));
            assertEquals(new OffsetPosition(110, 900), index.lookupByPosition(1499));
        }
    }

    @Test
    void rejectsNonIncreasingOffsetsAndOverflow() {
        try (OffsetIndex index = new OffsetIndex(dir.resolve("a.index"), 0, 16)) {
            index.append(5, 10);
            assertThrows(IllegalArgumentException.class, () -> index.append(5, 20));
            index.append(6, 20);
            assertTrue(index.isFull());
            assertThrows(IllegalStateException.class, () -> index.append(7, 30));
        }
        try (OffsetIndex index = new OffsetIndex(dir.resolve("b.index"), 0, 16)) {
            assertThrows(IllegalArgumentException.class, () -> index.append(1L + Integer.MAX_VALUE, 0));
        }
    }

    @Test
    void truncatesAndSurvivesCloseAndReopenTrimmed() throws Exception {
        Path file = dir.resolve("00000000000000000000.index");
        try (OffsetIndex index = new OffsetIndex(file, 0, 800)) {
            for (int i = 1; i <= 10; i++) {
                index.append(i * 10L, i * 100);
            }
            index.truncateTo(55);
            assertEquals(5, index.entries());
            assertEquals(new OffsetPosition(50, 500), index.lastEntry().orElseThrow());
        }
        assertEquals(40, Files.size(file), "closing trims to the entries");
        try (OffsetIndex index = new OffsetIndex(file, 0, 800)) {
            index.sanityCheck(10_000);
            assertEquals(5, index.entries());
            assertEquals(new OffsetPosition(30, 300), index.lookup(39));
            index.resize(800);
            assertEquals(100, index.maxEntries());
            index.append(60, 600);
            assertEquals(6, index.entries());
        }
    }

    @Test
    void sanityCheckCatchesZeroTailDisorderAndPartialEntries() throws Exception {
        Path file = dir.resolve("00000000000000000000.index");
        try (OffsetIndex index = new OffsetIndex(file, 0, 80)) {
            index.append(3, 100);
            index.flush();
            // unclean stop: no trim, the preallocated zeros stay
            index.closeHandler();
        }
        try (OffsetIndex index = new OffsetIndex(file, 0, 80)) {
            assertThrows(CorruptIndexException.class, () -> index.sanityCheck(1000));
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(8);
        }
        try (OffsetIndex index = new OffsetIndex(file, 0, 80)) {
            index.sanityCheck(1000);
            assertThrows(CorruptIndexException.class, () -> index.sanityCheck(100), "position past the log");
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(11);
        }
        try (OffsetIndex index = new OffsetIndex(file, 0, 80)) {
            assertThrows(CorruptIndexException.class, () -> index.sanityCheck(1000));
        }
    }

    @Test
    void resetEmptiesAndClosedIndexRefusesLookups() {
        OffsetIndex index = new OffsetIndex(dir.resolve("c.index"), 0, 80);
        index.append(1, 1);
        index.reset();
        assertEquals(0, index.entries());
        assertFalse(index.isFull());
        index.close();
        assertThrows(IllegalStateException.class, () -> index.lookup(0));
    }
}
