package io.kraft.storage.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream.BLOCKSIZE;
import net.jpountz.lz4.LZ4FrameOutputStream.FLG.Bits;
import org.apache.kafka.common.compress.Lz4BlockInputStream;
import org.apache.kafka.common.compress.Lz4BlockOutputStream;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.junit.jupiter.api.Test;

/** The LZ4 frame codec reads every frame shape Kafka and standard writers produce and writes what Kafka reads. */
class Lz4FrameTest {
    /** Compressible and incompressible stretches, so frames hold both compressed and stored blocks. */
    private static byte[] mixedContent() {
        return RawBatch.concat(SampleRecord.repeated(150_000), SampleRecord.random(new Random(3), 90_000),
                SampleRecord.repeated(10));
    }

    private static byte[] readAll(ByteBuffer frame) throws IOException {
        try (InputStream in = CompressionType.LZ4.wrapForInput(frame)) {
            return in.readAllBytes();
        }
    }

    private static byte[] standardFrame(byte[] content, Bits... features) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (LZ4FrameOutputStream out = new LZ4FrameOutputStream(sink, BLOCKSIZE.SIZE_256KB, content.length, features)) {
            out.write(content);
        }
        return sink.toByteArray();
    }

    @Test
    void readsStandardFramesWithChecksumsAndContentSize() throws IOException {
        byte[] content = mixedContent();
        byte[] frame = standardFrame(content, Bits.BLOCK_INDEPENDENCE, Bits.BLOCK_CHECKSUM, Bits.CONTENT_CHECKSUM,
                Bits.CONTENT_SIZE);
        assertArrayEquals(content, readAll(ByteBuffer.wrap(frame)));
    }

    @Test
    void detectsContentChecksumMismatch() throws IOException {
        byte[] frame = standardFrame(mixedContent(), Bits.BLOCK_INDEPENDENCE, Bits.CONTENT_CHECKSUM);
        frame[frame.length - 1] ^= 0x01;
        IOException e = assertThrows(IOException.class, () -> readAll(ByteBuffer.wrap(frame)));
        assertTrue(e.getMessage().contains("content checksum does not match"), e.getMessage());
    }

    @Test
    void detectsBlockChecksumMismatch() throws IOException {
        byte[] frame = standardFrame(SampleRecord.repeated(1000), Bits.BLOCK_INDEPENDENCE, Bits.BLOCK_CHECKSUM);
        // Last 4 bytes are the end mark; the 4 before them are the only block's checksum.
        frame[frame.length - 5] ^= 0x01;
        IOException e = assertThrows(IOException.class, () -> readAll(ByteBuffer.wrap(frame)));
        assertTrue(e.getMessage().contains("block checksum does not match"), e.getMessage());
    }

    @Test
    void refusesDependentBlocks() {
        // Version 1 without the block independence bit, 64 KiB blocks, a valid header checksum, end mark.
        byte[] frame = {0x04, 0x22, 0x4D, 0x18, 0x40, 0x40, 0, 0, 0, 0, 0};
        frame[6] = Lz4FrameOutputStream.headerChecksum(frame, 4, 2);
        IOException e = assertThrows(IOException.class, () -> readAll(ByteBuffer.wrap(frame)));
        assertTrue(e.getMessage().contains("dependent blocks are not supported"), e.getMessage());
    }

    @Test
    void readsKafkaFramesWithBlockChecksums() throws IOException {
        byte[] content = mixedContent();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (Lz4BlockOutputStream out = new Lz4BlockOutputStream(sink, Lz4BlockOutputStream.BLOCKSIZE_64KB, 9, true, false)) {
            out.write(content);
        }
        assertArrayEquals(content, readAll(ByteBuffer.wrap(sink.toByteArray())));
    }

    @Test
    void kafkaReadsFramesWrittenHere() throws IOException {
        byte[] content = mixedContent();
        byte[] frame = RawBatch.compress(CompressionType.LZ4, content);
        try (InputStream in = new Lz4BlockInputStream(ByteBuffer.wrap(frame), BufferSupplier.create(), false)) {
            assertArrayEquals(content, in.readAllBytes());
        }
        assertArrayEquals(content, readAll(ByteBuffer.allocateDirect(frame.length).put(frame).flip()));
    }

    @Test
    void truncatedFrameIsReported() {
        byte[] frame = RawBatch.compress(CompressionType.LZ4, mixedContent());
        ByteBuffer truncated = ByteBuffer.wrap(frame, 0, frame.length - 10);
        IOException e = assertThrows(IOException.class, () -> readAll(truncated));
        assertTrue(e.getMessage().contains("LZ4 frame is truncated"), e.getMessage());
    }
}
