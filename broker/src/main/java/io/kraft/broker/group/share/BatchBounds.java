package io.kraft.broker.group.share;

import io.kraft.storage.log.FileSlice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The whole record batches at the start of a log read, found from their headers alone (record batch v2: base offset
 * at byte 0, length at 8, last offset delta at 23), so a share fetch knows which offsets it is about to send
 * without decoding records.
 */
final class BatchBounds {
    private static final int LENGTH_OFFSET = 8;
    private static final int LOG_OVERHEAD = 12;
    private static final int LAST_OFFSET_DELTA_OFFSET = 23;
    private static final int HEADER_BYTES = LAST_OFFSET_DELTA_OFFSET + 4;

    /** The slice cut to its whole batches, and one past the last offset they hold (-1 when there is none). */
    record Whole(FileSlice slice, long endOffset) {
    }

    private BatchBounds() {
    }

    static Whole of(FileSlice slice) {
        if (slice.isEmpty()) {
            return new Whole(slice, -1);
        }
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        long position = slice.position();
        long end = slice.position() + slice.sizeBytes();
        long endOffset = -1;
        try {
            while (end - position >= HEADER_BYTES) {
                header.clear();
                while (header.hasRemaining()) {
                    if (slice.channel().read(header, position + header.position()) < 0) {
                        break;
                    }
                }
                if (header.hasRemaining()) {
                    break;
                }
                long base = header.getLong(0);
                int length = header.getInt(LENGTH_OFFSET);
                if (position + LOG_OVERHEAD + length > end) {
                    break; // partial last batch
                }
                endOffset = base + header.getInt(LAST_OFFSET_DELTA_OFFSET) + 1;
                position += LOG_OVERHEAD + length;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int wholeBytes = (int) (position - slice.position());
        return new Whole(wholeBytes == 0 ? FileSlice.empty() : new FileSlice(slice.channel(), slice.position(),
                wholeBytes), endOffset);
    }
}
