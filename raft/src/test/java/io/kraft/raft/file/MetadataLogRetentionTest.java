package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.LogEntry;
import io.kraft.raft.SnapshotId;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prefix a snapshot covers goes only once the log is over the size limit or its oldest segment too old. */
class MetadataLogRetentionTest {
    private static final SnapshotId SNAPSHOT = new SnapshotId(10, 1);

    @TempDir
    Path dir;

    private static FileRaftLog logOf(Path dir, int entries) {
        FileRaftLog log = FileRaftLog.open(dir, 1024 * 1024);
        List<LogEntry> list = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            list.add(LogEntry.data(i, 1, new byte[100]));
        }
        log.append(list);
        log.flush();
        return log;
    }

    @Test
    void deletesOnlyWhenTheLogIsTooLargeOrTooOld() {
        try (FileRaftLog log = logOf(dir, 20)) {
            long size = log.sizeBytes();
            AtomicLong nowMs = new AtomicLong(log.oldestSegmentModifiedMs());
            assertFalse(new MetadataLogRetention(log, size, 60_000, nowMs::get).deletePrefixUpTo(SNAPSHOT));
            assertTrue(new MetadataLogRetention(log, size - 1, 60_000, nowMs::get).deletePrefixUpTo(SNAPSHOT));
            MetadataLogRetention byAge = new MetadataLogRetention(log, -1, 60_000, nowMs::get);
            assertFalse(byAge.deletePrefixUpTo(SNAPSHOT));
            nowMs.addAndGet(60_001);
            assertTrue(byAge.deletePrefixUpTo(SNAPSHOT));
        }
    }

    @Test
    void readsKafkasSettingNamesWithTheirDefaults() {
        try (FileRaftLog log = logOf(dir, 1)) {
            assertFalse(MetadataLogRetention.from(log, Map.of()).deletePrefixUpTo(SNAPSHOT),
                    "100 MiB and 7 days by default");
            assertTrue(MetadataLogRetention.from(log, Map.of(MetadataLogRetention.MAX_RETENTION_BYTES, "0"))
                    .deletePrefixUpTo(SNAPSHOT));
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> MetadataLogRetention.from(log, Map.of(MetadataLogRetention.MAX_RETENTION_MS, "week")));
            assertEquals("Invalid value week for configuration metadata.max.retention.ms: expected a long",
                    error.getMessage());
        }
    }
}
