package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeIndexTest {
    @TempDir
    Path dir;

    @Test
    void keepsOnlyIncreasingTimestampsAndFindsTheFloor() {
        try (TimeIndex index = new TimeIndex(dir.resolve("t.timeindex"), 50, 120)) {
            assertEquals(new TimestampOffset(TimeIndex.NO_TIMESTAMP, 50), index.lastEntry());
            index.maybeAppend(1000, 55, false);
            index.maybeAppend(1000, 58, false);
            index.maybeAppend(900, 60, false);
            index.maybeAppend(TimeIndex.NO_TIMESTAMP, 61, false);
            index.maybeAppend(2000, 70, false);
            assertEquals(2, index.entries());
            assertEquals(new TimestampOffset(TimeIndex.NO_TIMESTAMP, 50), index.lookup(999));
            assertEquals(new TimestampOffset(1000, 55), index.lookup(1999));
            assertEquals(new TimestampOffset(2000, 70), index.lookup(5000));
            assertThrows(IllegalArgumentException.class, () -> index.maybeAppend(3000, 60, false),
                    "offsets may not go back");
        }
    }

    @Test
    void reservesTheLastSlotForTheFinalEntry() {
        try (TimeIndex index = new TimeIndex(dir.resolve("t.timeindex"), 0, 36)) {
            index.maybeAppend(1, 1, false);
            assertFalse(index.isFull());
            index.maybeAppend(2, 2, false);
            assertTrue(index.isFull());
            assertThrows(IllegalStateException.class, () -> index.maybeAppend(3, 3, false));
            index.maybeAppend(3, 3, true);
            assertEquals(3, index.entries());
        }
    }

    @Test
    void truncatesByOffsetAndDetectsCorruption() {
        Path file = dir.resolve("00000000000000000000.timeindex");
        try (TimeIndex index = new TimeIndex(file, 0, 120)) {
            index.maybeAppend(10, 5, false);
            index.maybeAppend(20, 9, false);
            index.maybeAppend(30, 15, false);
            index.truncateTo(9);
            assertEquals(new TimestampOffset(10, 5), index.lastEntry());
            index.maybeAppend(40, 20, false);
            index.flush();
            index.closeHandler();
        }
        try (TimeIndex index = new TimeIndex(file, 0, 120)) {
            assertThrows(CorruptIndexException.class, () -> index.sanityCheck(100), "zero tail after a crash");
        }
    }
}
