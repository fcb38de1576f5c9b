package io.kraft.storage.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.xerial.snappy.SnappyError;

/**
 * A compressed records section, decompressed as records are asked for: bytes are pulled from the
 * codec in window-sized chunks into one window (pooled, grown only for records larger than it), so
 * memory tracks the largest record rather than the whole batch, and a corrupt length cannot make it
 * allocate more than the data that is really there.
 */
final class DecompressingPayload extends RecordPayload {
    private static final int MAX_WINDOW_BYTES = Integer.MAX_VALUE - 8;

    private final CompressionType compression;
    private final boolean stableBodies;
    private final InputStream stream;
    /** The most bytes this batch may decode to; a bomb stops here instead of filling the heap. */
    private final long maxDecodedBytes;
    private byte[] window;
    private ByteBuffer windowView;
    private int position;
    private int end;
    private long decodedBytes;
    private boolean endOfStream;

    DecompressingPayload(ByteBuffer compressed, CompressionType compression, long batchBaseOffset,
            boolean stableBodies, long maxDecodedBytes) {
        super(batchBaseOffset);
        this.maxDecodedBytes = maxDecodedBytes;
        this.compression = compression;
        this.stableBodies = stableBodies;
        try {
            this.stream = compression.wrapForInput(compressed);
        } catch (IOException | RuntimeException | SnappyError e) {
            throw corruptPayload(e);
        }
        this.window = BufferPool.take(BufferPool.CHUNK_BYTES);
        this.windowView = ByteBuffer.wrap(window);
    }

    @Override
    ByteBuffer nextRecord(int index) {
        if (!ensure(1)) {
            return null;
        }
        int length = readLength(index);
        if (!ensure(length)) {
            checkLength(index, length, end - position, "the decompressed payload");
        }
        int start = position;
        position += length;
        if (stableBodies) {
            return ByteBuffer.wrap(Arrays.copyOfRange(window, start, start + length));
        }
        windowView.clear().limit(start + length).position(start);
        return windowView;
    }

    /** Decodes the zig-zag length prefix straight from the window. */
    private int readLength(int index) {
        int raw = 0;
        for (int i = 0; i < Varint.MAX_VARINT_BYTES; i++) {
            if (!ensure(1)) {
                throw new CorruptRecordException("record " + index + " of batch at offset " + batchBaseOffset
                        + " has a length prefix cut off by the end of the decompressed payload");
            }
            int b = window[position++];
            raw |= (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                lengthPrefixBytes(i + 1);
                int length = Varint.zigZagDecode(raw);
                checkLength(index, length, Long.MAX_VALUE, "the decompressed payload");
                return length;
            }
        }
        throw new CorruptRecordException("record " + index + " of batch at offset " + batchBaseOffset
                + " has a malformed length: varint is longer than " + Varint.MAX_VARINT_BYTES + " bytes");
    }

    @Override
    boolean hasMoreBytes() {
        return ensure(1);
    }

    /** Makes {@code bytes} decoded bytes available from {@code position}; false if the stream ends first. */
    private boolean ensure(int bytes) {
        while (end - position < bytes) {
            if (endOfStream) {
                return false;
            }
            if (end == window.length) {
                makeRoom(bytes);
            }
            int read;
            try {
                // never ask the codec for more than the limit allows, plus one byte to notice a batch past it
                int room = (int) Math.min(window.length - end, maxDecodedBytes - decodedBytes + 1);
                read = stream.read(window, end, room);
            } catch (IOException | RuntimeException | SnappyError e) {
                // snappy-java reports malformed input as an Error; it is still just bad bytes.
                throw corruptPayload(e);
            }
            if (read < 0) {
                endOfStream = true;
            } else {
                end += read;
                decodedBytes += read;
                if (decodedBytes > maxDecodedBytes) {
                    throw new DecompressionLimitException("compressed batch at offset " + batchBaseOffset + " ("
                            + compression.configName() + ") decodes to more than " + maxDecodedBytes + " bytes");
                }
            }
        }
        return true;
    }

    /** Frees the window's tail by moving unread bytes to the front, or grows it when they fill it. */
    private void makeRoom(int bytes) {
        if (position > 0) {
            System.arraycopy(window, position, window, 0, end - position);
            end -= position;
            position = 0;
            return;
        }
        // Double at most, and only when full, so growth is paid for by bytes actually decoded.
        int grown = (int) Math.min(Math.min(MAX_WINDOW_BYTES, maxDecodedBytes + 1),
                Math.min((long) bytes, 2L * window.length));
        if (grown <= window.length) {
            if (bytes > maxDecodedBytes) {
                throw new DecompressionLimitException("record of " + bytes + " bytes in compressed batch at offset "
                        + batchBaseOffset + " is over the " + maxDecodedBytes + " bytes the batch may decode to");
            }
            throw new CorruptRecordException("record of " + bytes + " bytes in batch at offset " + batchBaseOffset
                    + " is too large to decompress");
        }
        byte[] larger = Arrays.copyOf(window, grown);
        BufferPool.give(window);
        window = larger;
        windowView = ByteBuffer.wrap(window);
    }

    private CorruptRecordException corruptPayload(Throwable cause) {
        return new CorruptRecordException("compressed payload (" + compression.configName() + ") of batch at offset "
                + batchBaseOffset + " is corrupt after decoding " + decodedBytes + " bytes: " + cause, cause);
    }

    @Override
    public void close() {
        if (window == null) {
            return;
        }
        BufferPool.give(window);
        window = null;
        windowView = null;
        try {
            stream.close();
        } catch (IOException e) {
            // Closing only releases codec state; the data was already read or rejected.
        }
    }
}
