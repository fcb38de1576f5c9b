package io.kraft.storage.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.StreamingXXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * Reads one LZ4 frame (format version 1) from a buffer, one block at a time: what Kafka clients
 * write, and any standard frame with independent blocks, optional block and content checksums and
 * an optional content size. Dependent blocks and dictionaries are refused, as Kafka refuses them.
 */
final class Lz4FrameInputStream extends InputStream {
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();
    private static final int FLG_VERSION_MASK = 0xC0;
    private static final int FLG_BLOCK_CHECKSUM = 0x10;
    private static final int FLG_CONTENT_SIZE = 0x08;
    private static final int FLG_CONTENT_CHECKSUM = 0x04;
    private static final int FLG_RESERVED = 0x02;
    private static final int FLG_DICTIONARY_ID = 0x01;
    private static final int BD_RESERVED = 0x8F;

    private final ByteBuffer in;
    private final int maxBlockBytes;
    private final boolean blockChecksums;
    private final StreamingXXHash32 contentHash;
    private byte[] block;
    private ByteBuffer blockView;
    private int blockPosition;
    private int blockLength;
    private boolean finished;

    /** Reads the frame header at once so a bad header fails here, before any data is returned. */
    Lz4FrameInputStream(ByteBuffer compressed) throws IOException {
        this.in = compressed.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        require(7, "frame header");
        int magic = in.getInt();
        if (magic != Lz4FrameOutputStream.MAGIC) {
            throw new IOException("LZ4 frame magic 0x" + Integer.toHexString(magic) + " is not 0x"
                    + Integer.toHexString(Lz4FrameOutputStream.MAGIC));
        }
        int descriptorStart = in.position();
        int flg = in.get() & 0xFF;
        int bd = in.get() & 0xFF;
        if ((flg & FLG_VERSION_MASK) != Lz4FrameOutputStream.FLG_VERSION_1) {
            throw new IOException("LZ4 frame version " + (flg >>> 6) + " is not supported (only 1)");
        }
        if ((flg & FLG_RESERVED) != 0 || (bd & BD_RESERVED) != 0) {
            throw new IOException("LZ4 frame descriptor has reserved bits set (FLG 0x" + Integer.toHexString(flg)
                    + ", BD 0x" + Integer.toHexString(bd) + ")");
        }
        if ((flg & Lz4FrameOutputStream.FLG_BLOCK_INDEPENDENCE) == 0) {
            throw new IOException("LZ4 frames with dependent blocks are not supported");
        }
        if ((flg & FLG_DICTIONARY_ID) != 0) {
            throw new IOException("LZ4 frames with a dictionary id are not supported");
        }
        int sizeCode = (bd >>> 4) & 0x07;
        if (sizeCode < 4) {
            throw new IOException("LZ4 frame block size code " + sizeCode + " is invalid (4 to 7)");
        }
        maxBlockBytes = 1 << (2 * sizeCode + 8);
        if ((flg & FLG_CONTENT_SIZE) != 0) {
            require(8 + 1, "content size");
            in.position(in.position() + 8);
        } else {
            require(1, "header checksum");
        }
        int descriptorLength = in.position() - descriptorStart;
        int expected = (Lz4FrameOutputStream.XXHASH.hash(in, descriptorStart, descriptorLength, 0) >> 8) & 0xFF;
        int actual = in.get() & 0xFF;
        if (expected != actual) {
            throw new IOException("LZ4 frame header checksum " + actual + " does not match " + expected);
        }
        blockChecksums = (flg & FLG_BLOCK_CHECKSUM) != 0;
        contentHash = (flg & FLG_CONTENT_CHECKSUM) != 0 ? XXHashFactory.fastestInstance().newStreamingHash32(0) : null;
        block = BufferPool.take(maxBlockBytes);
        blockView = ByteBuffer.wrap(block);
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return block[blockPosition++] & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(length, blockLength - blockPosition);
        System.arraycopy(block, blockPosition, bytes, offset, n);
        blockPosition += n;
        return n;
    }

    @Override
    public int available() {
        return finished || block == null ? 0 : blockLength - blockPosition;
    }

    /** Makes decoded bytes available; false at the end of the frame. */
    private boolean fill() throws IOException {
        while (blockPosition == blockLength) {
            if (finished) {
                return false;
            }
            if (block == null) {
                throw new IOException("LZ4 frame stream is closed");
            }
            readBlock();
        }
        return true;
    }

    private void readBlock() throws IOException {
        require(4, "block size");
        int word = in.getInt();
        if (word == 0) {
            finishFrame();
            return;
        }
        boolean stored = (word & Lz4FrameOutputStream.UNCOMPRESSED_BLOCK_FLAG) != 0;
        int size = word & ~Lz4FrameOutputStream.UNCOMPRESSED_BLOCK_FLAG;
        if (size > maxBlockBytes) {
            throw new IOException("LZ4 block of " + size + " bytes exceeds the frame's maximum " + maxBlockBytes);
        }
        require(size + (blockChecksums ? 4 : 0), "block of " + size + " bytes");
        int start = in.position();
        if (blockChecksums) {
            int expected = Lz4FrameOutputStream.XXHASH.hash(in, start, size, 0);
            int actual = in.getInt(start + size);
            if (expected != actual) {
                throw new IOException("LZ4 block checksum does not match its bytes");
            }
        }
        if (stored) {
            in.get(block, 0, size);
            blockLength = size;
        } else {
            try {
                blockLength = DECOMPRESSOR.decompress(in, start, size, blockView, 0, maxBlockBytes);
            } catch (LZ4Exception e) {
                throw new IOException("LZ4 block is malformed: " + e.getMessage(), e);
            }
            in.position(start + size);
        }
        if (blockChecksums) {
            in.position(in.position() + 4);
        }
        if (contentHash != null) {
            contentHash.update(block, 0, blockLength);
        }
        blockPosition = 0;
    }

    private void finishFrame() throws IOException {
        if (contentHash != null) {
            require(4, "content checksum");
            int actual = in.getInt();
            if (actual != contentHash.getValue()) {
                throw new IOException("LZ4 frame content checksum does not match the decoded bytes");
            }
        }
        finished = true;
        blockPosition = 0;
        blockLength = 0;
    }

    private void require(int bytes, String what) throws IOException {
        if (in.remaining() < bytes) {
            throw new IOException("LZ4 frame is truncated: " + what + " needs " + bytes + " bytes, "
                    + in.remaining() + " left");
        }
    }

    /** Returns the block buffer to the pool; safe to call twice. */
    @Override
    public void close() {
        if (block != null) {
            BufferPool.give(block);
            block = null;
            blockView = null;
            blockPosition = 0;
            blockLength = 0;
            if (contentHash != null) {
                contentHash.close();
            }
        }
    }
}
