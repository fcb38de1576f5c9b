package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.offsets;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads bounded by an offset (a consumer's high watermark) return whole batches below it only. */
class BoundedReadTest {
    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path dir;

    private static List<Long> range(long from, long toExclusive) {
        return LongStream.range(from, toExclusive).boxed().toList();
    }

    private static List<Long> read(Log log, long offset, int maxBytes, long bound, boolean minOneBatch)
            throws Exception {
        ByteBuffer bytes = log.read(offset, maxBytes, bound, minOneBatch).records().readFully();
        return offsets(bytes);
    }

    /** Ten 3-record batches: offsets 0-2, 3-5, ... 27-29, in segments of about three batches. */
    private Log tenBatches() {
        Log log = Log.open(dir, LogConfig.builder().segmentBytes(3 * batch(3, 0).remaining() + 10)
                .indexIntervalBytes(1).maxIndexBytes(4096).build());
        for (int i = 0; i < 10; i++) {
            log.append(batch(3, i), 0, 100);
        }
        assertTrue(log.numberOfSegments() > 2);
        return log;
    }

    @Test
    void onlyBatchesWhollyBelowTheBoundAreReturned() throws Exception {
        try (Log log = tenBatches()) {
            assertEquals(range(0, 6), read(log, 0, Integer.MAX_VALUE, 6, false));
            assertEquals(range(0, 3), read(log, 0, Integer.MAX_VALUE, 5, false), "batch 3-5 reaches the bound");
            assertEquals(range(0, 3), read(log, 1, Integer.MAX_VALUE, 3, true));
            assertEquals(range(0, 9), read(log, 0, Integer.MAX_VALUE, 29, false), "one segment per read");
        }
    }

    @Test
    void aReadAtOrPastTheBoundIsEmpty() throws Exception {
        try (Log log = tenBatches()) {
            assertTrue(log.read(4, 1000, 5, true).records().isEmpty(), "the batch holding 4 ends past the bound");
            assertTrue(log.read(6, 1000, 6, true).records().isEmpty());
            assertTrue(log.read(20, 1000, 0, true).records().isEmpty());
            LogReadResult atBound = log.read(12, 1000, 12, true);
            assertTrue(atBound.records().isEmpty());
            assertEquals(30, atBound.logEndOffset());
            assertEquals(range(12, 15), read(log, 12, Integer.MAX_VALUE, 15, false));
        }
    }

    @Test
    void maxBytesAndMinOneBatchStillApplyBelowTheBound() throws Exception {
        try (Log log = tenBatches()) {
            int batchBytes = batch(3, 0).remaining();
            assertEquals(range(0, 3), read(log, 0, 10, 6, true), "a whole first batch despite maxBytes");
            assertTrue(log.read(0, 10, 6, false).records().sizeBytes() <= 10);
            assertEquals(range(0, 3), read(log, 0, batchBytes + batchBytes / 2, 9, false),
                    "the partial second batch is dropped by the reader");
        }
    }

    @Test
    void anUnboundedReadAndOutOfRangeBehaveAsBefore() throws Exception {
        try (Log log = tenBatches()) {
            assertEquals(offsets(log.read(9, Integer.MAX_VALUE, false).records().readFully()),
                    read(log, 9, Integer.MAX_VALUE, Long.MAX_VALUE, false));
            assertEquals(offsets(log.read(9, Integer.MAX_VALUE, false).records().readFully()),
                    read(log, 9, Integer.MAX_VALUE, 30, false), "a bound at the log end cuts nothing");
            assertThrows(OffsetOutOfRangeException.class, () -> log.read(31, 100, 10, true));
            log.deleteRecordsBefore(10);
            assertThrows(OffsetOutOfRangeException.class, () -> log.read(5, 100, 10, true));
        }
    }
}
