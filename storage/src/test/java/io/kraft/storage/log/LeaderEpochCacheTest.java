package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaderEpochCacheTest {
    @TempDir
    Path dir;

    @Test
    void assignIgnoresOldEpochsAndReplacesLaterStarts() {
        LeaderEpochCache cache = new LeaderEpochCache(dir);
        assertEquals(EpochEndOffset.UNDEFINED_EPOCH, cache.latestEpoch());
        assertTrue(cache.assign(1, 0));
        assertTrue(cache.assign(3, 10));
        assertFalse(cache.assign(3, 12), "same epoch again");
        assertFalse(cache.assign(2, 20), "older epoch");
        assertTrue(cache.assign(5, 10), "a higher epoch starting at the same offset replaces it");
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(5, 10)), cache.entries());
        assertTrue(cache.assign(6, 5));
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(6, 5)), cache.entries());
        assertEquals(6, cache.latestEpoch());
    }

    @Test
    void endOffsetForFollowsOffsetForLeaderEpoch() {
        LeaderEpochCache cache = new LeaderEpochCache(dir);
        assertEquals(EpochEndOffset.UNDEFINED, cache.endOffsetFor(0, 5), "empty cache");
        cache.assign(2, 10);
        cache.assign(4, 20);
        cache.assign(7, 35);
        assertEquals(new EpochEndOffset(7, 50), cache.endOffsetFor(7, 50), "latest epoch ends at the log end");
        assertEquals(new EpochEndOffset(4, 35), cache.endOffsetFor(4, 50));
        assertEquals(new EpochEndOffset(4, 35), cache.endOffsetFor(5, 50), "unknown epoch: largest below it");
        assertEquals(new EpochEndOffset(2, 20), cache.endOffsetFor(3, 50));
        assertEquals(new EpochEndOffset(1, 10), cache.endOffsetFor(1, 50), "below the first: its start");
        assertEquals(EpochEndOffset.UNDEFINED, cache.endOffsetFor(8, 50), "above every known epoch");
        assertEquals(EpochEndOffset.UNDEFINED, cache.endOffsetFor(EpochEndOffset.UNDEFINED_EPOCH, 50));
    }

    @Test
    void truncatesFromBothEndsAndPersistsAtomically() throws Exception {
        LeaderEpochCache cache = new LeaderEpochCache(dir);
        cache.assign(1, 0);
        cache.assign(2, 10);
        cache.assign(3, 20);
        cache.assign(4, 30);
        cache.truncateFromEnd(20);
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(2, 10)), cache.entries());
        cache.truncateFromStart(15);
        assertEquals(List.of(new EpochEntry(2, 15)), cache.entries());
        cache.truncateFromStart(5);
        assertEquals(List.of(new EpochEntry(2, 15)), cache.entries(), "start below every entry changes nothing");
        Path file = dir.resolve(LeaderEpochCache.FILE_NAME);
        assertEquals(List.of("0", "1", "2 15"), Files.readAllLines(file));
        assertFalse(Files.exists(dir.resolve(LeaderEpochCache.FILE_NAME + ".tmp")));
        assertEquals(cache.entries(), new LeaderEpochCache(dir).entries());
        cache.clear();
        assertEquals(List.of(), new LeaderEpochCache(dir).entries());
    }

    @Test
    void rejectsACorruptFile() throws Exception {
        Files.writeString(dir.resolve(LeaderEpochCache.FILE_NAME), "0\n2\n3 10\n2 20\n");
        assertThrows(CorruptCheckpointException.class, () -> new LeaderEpochCache(dir));
        Files.writeString(dir.resolve(LeaderEpochCache.FILE_NAME), "0\n1\nthree 10\n");
        assertThrows(CorruptCheckpointException.class, () -> new LeaderEpochCache(dir));
    }
}
