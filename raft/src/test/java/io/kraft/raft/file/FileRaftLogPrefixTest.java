package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.LogEntry;
import io.kraft.raft.OffsetAndEpoch;
import io.kraft.raft.SnapshotId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleting the prefix a snapshot covers: whole segments go, the start survives a reopen, a reset starts empty. */
class FileRaftLogPrefixTest {
    private static final long SEGMENT_BYTES = 1024;

    @TempDir
    java.nio.file.Path dir;

    private static List<LogEntry> entries(long from, int count, int epoch) {
        List<LogEntry> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(LogEntry.data(from + i, epoch, ("value-" + (from + i)).getBytes()));
        }
        return list;
    }

    @Test
    void deletingAPrefixDropsCoveredSegmentsAndSurvivesReopen() {
        int segmentsBefore;
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 100, 1));
            log.append(entries(100, 50, 2));
            log.flush();
            segmentsBefore = log.segmentCount();
            log.deletePrefix(new SnapshotId(120, 2));
            assertEquals(120, log.startOffset());
            assertEquals(150, log.endOffset());
            assertTrue(log.segmentCount() < segmentsBefore, "segments wholly below the start are deleted");
            assertEquals(120, log.read(120, 1).get(0).offset());
            assertThrows(IllegalArgumentException.class, () -> log.read(119, 1));
            assertThrows(IllegalArgumentException.class, () -> log.truncateTo(110));
            assertEquals(new OffsetAndEpoch(0, 0), log.endOffsetForEpoch(1), "epoch 1 lies wholly in the snapshot");
        }
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(120, log.startOffset());
            assertEquals(150, log.endOffset());
            assertEquals(2, log.lastEpoch());
            assertEquals(new OffsetAndEpoch(150, 2), log.endOffsetForEpoch(2));
            assertEquals("value-140", new String(log.read(140, 1).get(0).payload()));
            log.append(entries(150, 5, 3));
        }
    }

    @Test
    void aSnapshotBeyondTheLogResetsItToStartEmptyAtTheSnapshotEnd() {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 30, 1));
            log.deletePrefix(new SnapshotId(500, 4));
            assertEquals(500, log.startOffset());
            assertEquals(500, log.endOffset());
            assertEquals(4, log.lastEpoch());
            assertEquals(new OffsetAndEpoch(500, 4), log.endOffsetForEpoch(4));
            assertEquals(1, log.segmentCount());
        }
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(500, log.startOffset());
            assertEquals(500, log.endOffset());
            assertEquals(4, log.lastEpoch());
            log.append(entries(500, 3, 5));
            assertEquals(503, log.endOffset());
        }
    }

    @Test
    void reopeningAfterACrashMidResetFinishesTheReset() throws Exception {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 30, 1));
            log.flush();
        }
        // The start was recorded, then the crash came before the old segments went.
        java.nio.file.Files.writeString(dir.resolve(FileRaftLog.LOG_START_FILE), "500 4\n");
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(500, log.startOffset());
            assertEquals(500, log.endOffset());
            assertEquals(4, log.lastEpoch());
        }
    }

    @Test
    void reopeningAfterACrashMidPrefixDeletionKeepsTheEntriesAfterTheStart() throws Exception {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 100, 1));
            log.flush();
        }
        java.nio.file.Files.writeString(dir.resolve(FileRaftLog.LOG_START_FILE), "60 1\n");
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(60, log.startOffset());
            assertEquals(100, log.endOffset());
            assertEquals("value-60", new String(log.read(60, 1).get(0).payload()));
        }
    }

    @Test
    void aLogThatDivergesFromTheSnapshotIsReset() {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 20, 1));
            log.deletePrefix(new SnapshotId(10, 2)); // our entry at 9 has epoch 1: not the snapshot's history
            assertEquals(10, log.startOffset());
            assertEquals(10, log.endOffset());
            assertEquals(2, log.lastEpoch());
        }
    }
}
