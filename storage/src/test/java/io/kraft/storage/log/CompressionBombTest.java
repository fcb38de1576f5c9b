package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.DecompressionLimitException;
import io.kraft.storage.record.RecordBatchBuilder;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A gzip batch of about 1 MiB that inflates to 1 GiB is refused with RECORD_TOO_LARGE by every append step that
 * reads records (a compacted topic's key rule, re-compression to the topic's codec) after decoding no more than
 * max.message.bytes plus the margin, and a refusal of many bad records names at most 100 of them.
 */
class CompressionBombTest {
    private static final Path DIR = Path.of("/data/bombed-0");
    private static final long NOW = 10_000_000L;
    private static ByteBuffer bomb;

    @BeforeAll
    static void buildBomb() {
        byte[] zeros = new byte[1 << 20];
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(4 << 20), CompressionType.GZIP, 0);
        for (int i = 0; i < 1024; i++) {
            builder.append(NOW, ("k" + i).getBytes(), zeros);
        }
        bomb = builder.build();
        System.out.println("gzip bomb: " + bomb.remaining() + " bytes inflating to " + builder.uncompressedRecordBytes());
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static void assertRefusedWithinTheLimit(Runnable read, LogConfig config) {
        long before = allocatedBytes();
        DecompressionLimitException refused = assertThrows(DecompressionLimitException.class, read::run);
        long allocated = allocatedBytes() - before;
        assertEquals(Errors.MESSAGE_TOO_LARGE, refused.error());
        assertTrue(refused.getMessage().contains("decodes to more than " + config.maxDecompressedBytes()),
                refused.getMessage());
        // decoding stops at the limit (max.message.bytes + 64 MiB), far below the 1 GiB the bomb holds; what is
        // allocated meanwhile (windows, copies for re-compression) is garbage of about that size, never 1 GiB
        assertTrue(allocated < config.maxDecompressedBytes() + (16L << 20), "reading the bomb allocated " + allocated
                + " bytes");
    }

    @Test
    void aCompactedTopicRefusesTheBombWithRecordTooLarge() {
        LogConfig compacted = LogConfig.builder().maxIndexBytes(4096).compact(true).delete(false).build();
        assertRefusedWithinTheLimit(() -> RecordRules.check(bomb.duplicate(), compacted, NOW, DIR), compacted);
    }

    @Test
    void reCompressingToTheTopicsCodecRefusesTheBombWithRecordTooLarge() {
        LogConfig lz4 = LogConfig.builder().maxIndexBytes(4096).compressionType("lz4").build();
        assertRefusedWithinTheLimit(() -> TopicCompression.apply(bomb.duplicate(), lz4), lz4);
    }

    @Test
    void aRefusalNamesAtMostAHundredOfItsBadRecords() {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(1 << 20), CompressionType.NONE, 0);
        for (int i = 0; i < 10_000; i++) {
            builder.append(NOW, (byte[]) null, new byte[] {1});
        }
        LogConfig compacted = LogConfig.builder().maxIndexBytes(4096).compact(true).delete(false).build();
        InvalidRecordException refused = assertThrows(InvalidRecordException.class,
                () -> RecordRules.check(builder.build(), compacted, NOW, DIR));
        assertEquals(RecordError.MAX_PER_REFUSAL, refused.recordErrors().size());
        assertEquals(0, refused.recordErrors().get(0).batchIndex());
    }
}
