package io.kraft.storage.record;

import java.io.IOException;
import java.io.OutputStream;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * Writes one LZ4 frame the way Kafka clients expect in a v2 batch: independent 64 KiB blocks, no
 * block or content checksums, no content size, and a header checksum computed over the frame
 * descriptor only (the correct form; the historic Kafka bug of hashing the magic applies to v0
 * message sets, never to v2 batches). Blocks that do not shrink are stored raw.
 */
final class Lz4FrameOutputStream extends OutputStream {
    static final int MAGIC = 0x184D2204;
    /** FLG: version 01 in bits 7-6, block independence in bit 5. */
    static final int FLG_VERSION_1 = 0x40;
    static final int FLG_BLOCK_INDEPENDENCE = 0x20;
    /** BD: block maximum size code 4 (64 KiB) in bits 6-4. */
    static final int BD_64KB = 4 << 4;
    static final int BLOCK_BYTES = 64 * 1024;
    /** High bit of a block size: the block is stored without compression. */
    static final int UNCOMPRESSED_BLOCK_FLAG = 0x80000000;

    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    static final XXHash32 XXHASH = XXHashFactory.fastestInstance().hash32();

    private final OutputStream out;
    /** Scratch for little-endian block sizes and the end mark. */
    private final byte[] word = new byte[4];
    private byte[] block;
    private byte[] compressed;
    private int blockLength;
    private boolean closed;

    Lz4FrameOutputStream(OutputStream out) throws IOException {
        this.out = out;
        this.block = BufferPool.take(BLOCK_BYTES);
        this.compressed = BufferPool.take(COMPRESSOR.maxCompressedLength(BLOCK_BYTES));
        writeHeader();
    }

    private void writeHeader() throws IOException {
        byte[] header = new byte[7];
        writeIntLe(header, 0, MAGIC);
        header[4] = (byte) (FLG_VERSION_1 | FLG_BLOCK_INDEPENDENCE);
        header[5] = (byte) BD_64KB;
        header[6] = headerChecksum(header, 4, 2);
        out.write(header);
    }

    /** The frame descriptor checksum: second byte of XXH32 (seed 0) of the descriptor bytes. */
    static byte headerChecksum(byte[] bytes, int offset, int length) {
        return (byte) ((XXHASH.hash(bytes, offset, length, 0) >> 8) & 0xFF);
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (blockLength == BLOCK_BYTES) {
            writeBlock();
        }
        block[blockLength++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        ensureOpen();
        int written = 0;
        while (written < length) {
            if (blockLength == BLOCK_BYTES) {
                writeBlock();
            }
            int n = Math.min(length - written, BLOCK_BYTES - blockLength);
            System.arraycopy(bytes, offset + written, block, blockLength, n);
            blockLength += n;
            written += n;
        }
    }

    private void writeBlock() throws IOException {
        if (blockLength == 0) {
            return;
        }
        int compressedLength = COMPRESSOR.compress(block, 0, blockLength, compressed, 0, compressed.length);
        if (compressedLength < blockLength) {
            writeIntLe(word, 0, compressedLength);
            out.write(word);
            out.write(compressed, 0, compressedLength);
        } else {
            writeIntLe(word, 0, blockLength | UNCOMPRESSED_BLOCK_FLAG);
            out.write(word);
            out.write(block, 0, blockLength);
        }
        blockLength = 0;
    }

    /** Frames cannot be flushed mid-block without changing block boundaries; data is written on close. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        out.flush();
    }

    /** Writes the last block and the end mark, and returns the scratch arrays to the pool. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            writeBlock();
            writeIntLe(word, 0, 0);
            out.write(word);
            out.close();
        } finally {
            closed = true;
            BufferPool.give(block);
            BufferPool.give(compressed);
            block = null;
            compressed = null;
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("LZ4 frame stream is closed");
        }
    }

    static void writeIntLe(byte[] bytes, int offset, int value) {
        bytes[offset] = (byte) value;
        bytes[offset + 1] = (byte) (value >>> 8);
        bytes[offset + 2] = (byte) (value >>> 16);
        bytes[offset + 3] = (byte) (value >>> 24);
    }
}
