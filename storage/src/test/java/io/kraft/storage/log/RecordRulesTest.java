package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.concat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

/** The record-level rules name every record they refuse (KIP-467), without costing the accepted appends anything. */
class RecordRulesTest {
    private static final long NOW = 10_000_000L;
    private static final Path DIR = Path.of("/data/topic-0");

    private record R(long timestampMs, String key) {
    }

    private static ByteBuffer batch(Compression compression, R... records) {
        SimpleRecord[] simple = new SimpleRecord[records.length];
        for (int i = 0; i < records.length; i++) {
            simple[i] = new SimpleRecord(records[i].timestampMs(),
                    records[i].key() == null ? null : records[i].key().getBytes(), ("v" + i).getBytes());
        }
        return TestBatches.copy(MemoryRecords.withRecords(compression, simple).buffer());
    }

    private static ByteBuffer batch(R... records) {
        return batch(Compression.NONE, records);
    }

    private static LogConfig.Builder config() {
        return LogConfig.builder().maxIndexBytes(4096);
    }

    private static List<Integer> indexes(InvalidRecordException refused) {
        return refused.recordErrors().stream().map(RecordError::batchIndex).toList();
    }

    @Test
    void everyRecordAfterTheUpperBoundIsNamedByItsIndexInItsOwnBatch() {
        ByteBuffer records = concat(
                batch(new R(NOW, "a"), new R(NOW + 2_000, "b"), new R(NOW + 5, "c")),
                batch(new R(NOW + 3_000, "d"), new R(NOW, "e"), new R(NOW + 4_000, "f")));
        InvalidTimestampException refused = assertThrows(InvalidTimestampException.class,
                () -> RecordRules.check(records, config().messageTimestampAfterMaxMs(1_000).build(), NOW, DIR));
        assertEquals(List.of(1, 0, 2), indexes(refused), "indexes count from 0 in each batch");
        assertEquals("timestamp " + (NOW + 2_000) + " of record 1 is outside [" + Long.MIN_VALUE + ", "
                + (NOW + 1_000) + "]", refused.recordErrors().get(0).message());
        assertTrue(refused.getMessage().contains("record timestamp " + (NOW + 2_000)), refused.getMessage());
        assertTrue(refused.getMessage().contains("is after the bound " + (NOW + 1_000)), refused.getMessage());
    }

    @Test
    void aFiniteLowerBoundNamesStaleRecordsInsideCompressedBatches() {
        ByteBuffer records = batch(Compression.lz4().build(),
                new R(NOW, null), new R(NOW - 3_600_000L, null), new R(NOW - 1, null), new R(NOW - 7_200_000L, null));
        InvalidTimestampException refused = assertThrows(InvalidTimestampException.class,
                () -> RecordRules.check(records, config().messageTimestampBeforeMaxMs(60_000).build(), NOW, DIR));
        assertEquals(List.of(1, 3), indexes(refused));
        assertTrue(refused.getMessage().contains("before the bound " + (NOW - 60_000)), refused.getMessage());
    }

    @Test
    void recordsWithoutATimestampAreNeverNamed() {
        ByteBuffer records = batch(new R(-1, null), new R(NOW - 3_600_000L, null), new R(-1, null));
        InvalidTimestampException refused = assertThrows(InvalidTimestampException.class,
                () -> RecordRules.check(records, config().messageTimestampBeforeMaxMs(60_000).build(), NOW, DIR));
        assertEquals(List.of(1), indexes(refused));
    }

    @Test
    void everyRecordWithoutAKeyInACompactedTopicIsNamed() {
        ByteBuffer records = concat(batch(new R(NOW, "a"), new R(NOW, null)),
                batch(Compression.gzip().build(), new R(NOW, null), new R(NOW, "b"), new R(NOW, null)));
        InvalidRecordException refused = assertThrows(InvalidRecordException.class,
                () -> RecordRules.check(records, config().compact(true).build(), NOW, DIR));
        assertEquals(InvalidRecordException.class, refused.getClass());
        assertEquals(List.of(1, 0, 2), indexes(refused));
        assertEquals("record 1 has no key, which a compacted topic requires", refused.recordErrors().get(0).message());
        assertEquals("record 1 of the batch at position 0 has no key, but the compacted log topic-0 only takes keyed "
                + "records", refused.getMessage());
    }

    @Test
    void aTimestampRefusalWinsOverAKeyRefusalAndNamesOnlyTheTimestamps() {
        ByteBuffer records = batch(new R(NOW, null), new R(NOW + 10_000, "k"));
        InvalidRecordException refused = assertThrows(InvalidRecordException.class, () -> RecordRules.check(records,
                config().compact(true).messageTimestampAfterMaxMs(1_000).build(), NOW, DIR));
        assertInstanceOf(InvalidTimestampException.class, refused);
        assertEquals(List.of(1), indexes(refused));
    }

    @Test
    void compactionDoesNotChangeHowTimestampsAreJudged() {
        ByteBuffer records = batch(new R(NOW, "a"), new R(NOW + 2_000, "b"), new R(NOW + 5_000, "c"));
        LogConfig.Builder bounded = config().messageTimestampAfterMaxMs(1_000);
        InvalidTimestampException plain = assertThrows(InvalidTimestampException.class,
                () -> RecordRules.check(records, bounded.build(), NOW, DIR));
        InvalidTimestampException compacted = assertThrows(InvalidTimestampException.class,
                () -> RecordRules.check(records, bounded.compact(true).build(), NOW, DIR));
        assertEquals(plain.getMessage(), compacted.getMessage());
        assertTrue(plain.getMessage().contains("record timestamp " + (NOW + 5_000)), "the batch's max timestamp");
        assertEquals(plain.recordErrors(), compacted.recordErrors());
        assertEquals(List.of(1, 2), indexes(compacted));
    }

    @Test
    void logAppendTimeTopicsThatAreNotCompactedReadNothing() {
        ByteBuffer garbage = ByteBuffer.wrap(new byte[] {1, 2, 3});
        RecordRules.check(garbage, config().logAppendTime(true).build(), NOW, DIR);
    }

    @Test
    void acceptedAppendsAllocateNothingPerRecord() {
        var threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads instanceof com.sun.management.ThreadMXBean, "needs HotSpot's allocation counter");
        com.sun.management.ThreadMXBean counter = (com.sun.management.ThreadMXBean) threads;
        assumeTrue(counter.isThreadAllocatedMemorySupported() && counter.isThreadAllocatedMemoryEnabled());
        // Both rules read every record: a finite lower bound and a compacted topic.
        LogConfig config = config().compact(true).messageTimestampBeforeMaxMs(60_000).build();
        R[] many = new R[10_000];
        for (int i = 0; i < many.length; i++) {
            many[i] = new R(NOW, "k" + i);
        }
        ByteBuffer small = batch(new R(NOW, "k"));
        ByteBuffer large = batch(many);
        long smallBytes = Long.MAX_VALUE;
        long largeBytes = Long.MAX_VALUE;
        long thread = Thread.currentThread().getId();
        for (int round = 0; round < 20; round++) {
            long before = counter.getThreadAllocatedBytes(thread);
            RecordRules.check(small, config, NOW, DIR);
            long between = counter.getThreadAllocatedBytes(thread);
            RecordRules.check(large, config, NOW, DIR);
            long after = counter.getThreadAllocatedBytes(thread);
            smallBytes = Math.min(smallBytes, between - before);
            largeBytes = Math.min(largeBytes, after - between);
        }
        assertTrue(largeBytes - smallBytes < many.length, "checking 10,000 records allocated " + largeBytes
                + " bytes, one record " + smallBytes);
    }
}
