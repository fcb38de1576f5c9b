package io.kraft.storage.record;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** Reads the remaining bytes of a buffer (heap or direct) as a stream, for the codecs that want one. */
final class ByteBufferInputStream extends InputStream {
    private final ByteBuffer buffer;

    /** Reads from a private duplicate, so the caller's position is untouched. */
    ByteBufferInputStream(ByteBuffer buffer) {
        this.buffer = buffer.duplicate();
    }

    @Override
    public int read() {
        return buffer.hasRemaining() ? buffer.get() & 0xFF : -1;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        if (!buffer.hasRemaining()) {
            return -1;
        }
        int n = Math.min(length, buffer.remaining());
        buffer.get(bytes, offset, n);
        return n;
    }

    @Override
    public long skip(long n) {
        int skipped = (int) Math.max(0, Math.min(n, buffer.remaining()));
        buffer.position(buffer.position() + skipped);
        return skipped;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }
}
