package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A compacted log's leader refuses records without a key, as Kafka does; other logs take them. */
class CompactedKeysTest {
    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path dir;

    private static ByteBuffer records(Compression compression, String... keys) {
        SimpleRecord[] records = new SimpleRecord[keys.length];
        for (int i = 0; i < keys.length; i++) {
            records[i] = new SimpleRecord(1_000L, keys[i] == null ? null : keys[i].getBytes(), ("v" + i).getBytes());
        }
        return TestBatches.copy(MemoryRecords.withRecords(compression, records).buffer());
    }

    @Test
    void aCompactedLogRefusesTheWholeAppendWhenOneRecordHasNoKey() {
        try (Log log = Log.open(dir, LogConfig.builder().maxIndexBytes(4096).compact(true).build())) {
            log.append(records(Compression.NONE, "a", "b"), 0, 2_000L);
            long size = log.sizeInBytes();
            // Inside a compressed batch, and not the first record: each record is looked at.
            InvalidRecordException refused = assertThrows(InvalidRecordException.class,
                    () -> log.append(records(Compression.lz4().build(), "c", null, "d"), 0, 2_000L));
            assertTrue(refused.getMessage().contains("record 1 "), refused.getMessage());
            assertTrue(refused.getMessage().contains("no key"), refused.getMessage());
            assertEquals(2, log.logEndOffset(), "nothing of the refused append was written");
            assertEquals(size, log.sizeInBytes());
        }
    }

    @Test
    void otherLogsTakeRecordsWithoutAKey() {
        try (Log log = Log.open(dir, LogConfig.builder().maxIndexBytes(4096).build())) {
            log.append(records(Compression.gzip().build(), null, null), 0, 2_000L);
            assertEquals(2, log.logEndOffset());
        }
    }
}
