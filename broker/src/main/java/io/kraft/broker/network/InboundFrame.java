package io.kraft.broker.network;

import io.netty.buffer.ByteBuf;

/**
 * One received request frame (the bytes after its size) and the request memory it holds; releasing it frees
 * both, once.
 */
final class InboundFrame {
    private final ByteBuf bytes;
    private final int reservedBytes;
    private final RequestMemoryPool memory;
    private boolean released;

    InboundFrame(ByteBuf bytes, int reservedBytes, RequestMemoryPool memory) {
        this.bytes = bytes;
        this.reservedBytes = reservedBytes;
        this.memory = memory;
    }

    ByteBuf bytes() {
        return bytes;
    }

    /** Frees the buffer and gives its memory back to the pool; later calls do nothing. */
    void release() {
        if (released) {
            return;
        }
        released = true;
        bytes.release();
        memory.release(reservedBytes);
    }
}
