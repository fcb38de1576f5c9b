package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.concat;
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

/** KIP-937 timestamp bounds on leader appends of CreateTime topics. */
class TimestampBoundsTest {
    private static final long NOW = 10_000_000L;

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path dir;

    private static LogConfig.Builder config() {
        return LogConfig.builder().maxIndexBytes(4096);
    }

    /** One batch whose records carry exactly these timestamps, in this order. */
    private static ByteBuffer withTimestamps(Compression compression, long... timestamps) {
        SimpleRecord[] records = new SimpleRecord[timestamps.length];
        for (int i = 0; i < timestamps.length; i++) {
            records[i] = new SimpleRecord(timestamps[i], null, ("v" + i).getBytes());
        }
        return TestBatches.copy(MemoryRecords.withRecords(compression, records).buffer());
    }

    private static InvalidTimestampException assertRefused(Log log, ByteBuffer records) {
        long end = log.logEndOffset();
        long size = log.sizeInBytes();
        InvalidTimestampException refused = assertThrows(InvalidTimestampException.class,
                () -> log.append(records, 0, NOW));
        assertEquals(end, log.logEndOffset());
        assertEquals(size, log.sizeInBytes());
        return refused;
    }

    @Test
    void aRecordTooFarInTheFutureRejectsTheWholeAppend() {
        try (Log log = Log.open(dir, config().messageTimestampAfterMaxMs(1000).build())) {
            log.append(batch(1, NOW + 1000), 0, NOW);
            ByteBuffer fine = batch(2, NOW);
            InvalidTimestampException refused = assertRefused(log,
                    concat(fine, withTimestamps(Compression.NONE, NOW, NOW + 1001, NOW)));
            assertTrue(refused.getMessage().contains("record timestamp " + (NOW + 1001)), refused.getMessage());
            assertTrue(refused.getMessage().contains("bound " + (NOW + 1000)), refused.getMessage());
            assertTrue(refused.getMessage().contains("message.timestamp.after.max.ms 1000"), refused.getMessage());
        }
    }

    @Test
    void theDefaultAllowsOneHourAheadAndAnyPast() {
        try (Log log = Log.open(dir, config().build())) {
            log.append(withTimestamps(Compression.NONE, 0, NOW + 3_600_000L), 0, NOW);
            assertRefused(log, withTimestamps(Compression.NONE, NOW + 3_600_001L));
            assertEquals(2, log.logEndOffset());
        }
    }

    @Test
    void aFiniteLowerBoundChecksEveryRecordEvenInsideCompressedBatches() {
        try (Log log = Log.open(dir, config().messageTimestampBeforeMaxMs(500).build())) {
            log.append(withTimestamps(Compression.lz4().build(), NOW, NOW - 500, NOW + 10), 0, NOW);
            // The low record is neither the first nor the max: only a look at each record finds it.
            InvalidTimestampException refused = assertRefused(log,
                    withTimestamps(Compression.gzip().build(), NOW, NOW - 501, NOW + 20));
            assertTrue(refused.getMessage().contains("record timestamp " + (NOW - 501)), refused.getMessage());
            assertTrue(refused.getMessage().contains("before the bound " + (NOW - 500)), refused.getMessage());
        }
    }

    @Test
    void recordsWithoutTimestampsPass() {
        try (Log log = Log.open(dir, config().messageTimestampBeforeMaxMs(10).messageTimestampAfterMaxMs(10).build())) {
            log.append(withTimestamps(Compression.NONE, -1, -1), 0, NOW);
            assertEquals(2, log.logEndOffset());
        }
    }

    @Test
    void logAppendTimeTopicsIgnoreTheBoundsAndStampTheBatch() {
        try (Log log = Log.open(dir, config().logAppendTime(true).messageTimestampBeforeMaxMs(0)
                .messageTimestampAfterMaxMs(0).build())) {
            AppendInfo info = log.append(withTimestamps(Compression.NONE, 1, NOW * 2), 0, NOW);
            assertEquals(NOW, info.logAppendTimeMs());
        }
    }

    @Test
    void followersAreNotChecked() {
        try (Log log = Log.open(dir, config().messageTimestampAfterMaxMs(0).build())) {
            log.appendAsFollower(TestBatches.followerBatch(0, 2, NOW * 3, 0), NOW);
            assertEquals(2, log.logEndOffset());
        }
    }
}
