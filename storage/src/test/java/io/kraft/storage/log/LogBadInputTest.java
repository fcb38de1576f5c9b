package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.record.CorruptRecordException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.apache.kafka.common.compress.Compression;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Every malformed append fails with a specific exception and leaves the log byte-for-byte unchanged. */
class LogBadInputTest {
    @TempDir
    Path dir;
    private Log log;
    private byte[] contentBefore;
    private long sizeBefore;

    @BeforeEach
    void fill() throws Exception {
        log = Log.open(dir, LogConfig.builder().maxMessageBytes(2000).build());
        log.append(batch(3, 100), 0, 1);
        log.append(batch(2, 200), 0, 1);
        contentBefore = bytes(TestBatches.readAll(log));
        sizeBefore = Files.size(log.activeSegment().logFile());
    }

    @AfterEach
    void close() {
        log.close();
    }

    private static ByteBuffer corrupt(ByteBuffer batch, Consumer<ByteBuffer> change) {
        ByteBuffer copy = TestBatches.copy(batch);
        change.accept(copy);
        return copy;
    }

    /** Re-signs a batch so only the intended inconsistency remains. */
    private static void fixCrc(ByteBuffer batch) {
        CRC32C crc = new CRC32C();
        ByteBuffer covered = batch.duplicate().position(21);
        crc.update(covered);
        batch.putInt(17, (int) crc.getValue());
    }

    private <T extends Throwable> T assertRejectedUnchanged(Class<T> type, Executable append) throws Exception {
        T error = assertThrows(type, append);
        assertEquals(5, log.logEndOffset());
        assertArrayEquals(contentBefore, bytes(TestBatches.readAll(log)));
        assertEquals(sizeBefore, Files.size(log.activeSegment().logFile()));
        return error;
    }

    @Test
    void wrongCrc() throws Exception {
        ByteBuffer bad = corrupt(batch(3, 1), b -> b.put(b.limit() - 1, (byte) (b.get(b.limit() - 1) ^ 1)));
        CorruptRecordException e = assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(bad, 0, 1));
        assertTrue(e.getMessage().contains("CRC"), e.getMessage());
    }

    @Test
    void badMagic() throws Exception {
        ByteBuffer bad = corrupt(batch(3, 1), b -> b.put(16, (byte) 1));
        CorruptRecordException e = assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(bad, 0, 1));
        assertTrue(e.getMessage().contains("magic"), e.getMessage());
    }

    @Test
    void negativeLength() throws Exception {
        ByteBuffer bad = corrupt(batch(3, 1), b -> b.putInt(8, -20));
        assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(bad, 0, 1));
    }

    @Test
    void lengthBeyondTheBuffer() throws Exception {
        ByteBuffer bad = corrupt(batch(3, 1), b -> b.putInt(8, Integer.MAX_VALUE - 100));
        CorruptRecordException e = assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(bad, 0, 1));
        assertTrue(e.getMessage().contains("exceeds"), e.getMessage());
    }

    @Test
    void recordCountAboveTheOffsetSpan() throws Exception {
        ByteBuffer bad = corrupt(batch(3, 1), b -> {
            b.putInt(57, 4);
            fixCrc(b);
        });
        assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(bad, 0, 1));
    }

    @Test
    void recordCountBelowTheOffsetSpanFromAProducer() throws Exception {
        ByteBuffer bad = corrupt(batch(3, 1), b -> {
            b.putInt(57, 2);
            fixCrc(b);
        });
        CorruptRecordException e = assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(bad, 0, 1));
        assertTrue(e.getMessage().contains("spans 3 offsets"), e.getMessage());
    }

    @Test
    void truncatedBatch() throws Exception {
        ByteBuffer whole = batch(3, 1);
        ByteBuffer bad = TestBatches.copy(whole.duplicate().limit(whole.limit() - 5));
        assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(bad, 0, 1));
        ByteBuffer headerOnly = TestBatches.copy(whole.duplicate().limit(30));
        assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(headerOnly, 0, 1));
    }

    @Test
    void emptyAppend() throws Exception {
        assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(ByteBuffer.allocate(0), 0, 1));
    }

    @Test
    void batchLargerThanMaxMessageBytes() throws Exception {
        ByteBuffer big = batch(30, 1, 100, Compression.NONE, new Random(1));
        RecordTooLargeException e = assertRejectedUnchanged(RecordTooLargeException.class, () -> log.append(big, 0, 1));
        assertTrue(e.getMessage().contains("max.message.bytes"), e.getMessage());
    }

    @Test
    void oneBadBatchAmongGoodOnesWritesNothing() throws Exception {
        ByteBuffer good = batch(2, 1);
        ByteBuffer bad = corrupt(batch(3, 1), b -> b.put(70, (byte) (b.get(70) ^ 0x40)));
        ByteBuffer mixed = TestBatches.concat(good, TestBatches.copy(good), bad);
        byte[] original = bytes(mixed);
        assertRejectedUnchanged(CorruptRecordException.class, () -> log.append(mixed, 0, 1));
        assertArrayEquals(original, bytes(mixed), "offsets are not assigned before every batch validates");
    }

    @Test
    void followerAppendOfACorruptBatch() throws Exception {
        ByteBuffer bad = corrupt(TestBatches.followerBatch(5, 2, 1, 0), b -> b.put(b.limit() - 2, (byte) 7));
        assertRejectedUnchanged(CorruptRecordException.class, () -> log.appendAsFollower(bad, 1));
    }
}
