package io.kraft.storage.record;

import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * Writes into a buffer from its position on, moving to a larger heap buffer when it fills, so a
 * batch can be built into a caller's buffer without knowing its final size in advance.
 */
final class ByteBufferOutputStream extends OutputStream {
    private ByteBuffer buffer;

    ByteBufferOutputStream(ByteBuffer initial) {
        this.buffer = initial;
    }

    /** The current buffer; replaced when the stream grows, so do not hold on to it across writes. */
    ByteBuffer buffer() {
        return buffer;
    }

    int position() {
        return buffer.position();
    }

    void position(int position) {
        ensureCapacity(position);
        buffer.position(position);
    }

    /** Makes room for {@code bytes} more bytes after the position, growing by at least half each time. */
    void ensureRemaining(int bytes) {
        if (bytes > buffer.remaining()) {
            ensureCapacity(buffer.position() + bytes);
        }
    }

    private void ensureCapacity(int capacity) {
        if (capacity < 0) {
            throw new IllegalStateException("record batch would exceed 2 GiB");
        }
        if (capacity <= buffer.limit()) {
            return;
        }
        long grown = Math.max((long) capacity, (long) buffer.capacity() + (buffer.capacity() >> 1));
        ByteBuffer larger = ByteBuffer.allocate((int) Math.min(grown, Integer.MAX_VALUE - 8));
        int position = buffer.position();
        buffer.flip();
        larger.put(buffer);
        larger.position(position);
        buffer = larger;
    }

    @Override
    public void write(int b) {
        ensureRemaining(1);
        buffer.put((byte) b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        ensureRemaining(length);
        buffer.put(bytes, offset, length);
    }

    void write(ByteBuffer source) {
        ensureRemaining(source.remaining());
        buffer.put(source);
    }
}
