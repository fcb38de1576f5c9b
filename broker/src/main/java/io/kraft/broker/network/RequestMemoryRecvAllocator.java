package io.kraft.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;

/**
 * Sizes one connection's socket reads as Netty's adaptive allocator would, but never beyond what is left of the
 * listener's request memory (see {@link RequestMemoryPool#readBytes}). Bytes read while the pool is used up wait in
 * the connection until memory comes back; without this each of thousands of such connections could hold a
 * full-size read (up to 64 KiB) outside the pool's count.
 */
final class RequestMemoryRecvAllocator implements RecvByteBufAllocator {
    private final RecvByteBufAllocator adaptive = new AdaptiveRecvByteBufAllocator();
    private final RequestFrameDecoder decoder;

    RequestMemoryRecvAllocator(RequestFrameDecoder decoder) {
        this.decoder = decoder;
    }

    @Override
    public Handle newHandle() {
        return new DelegatingHandle(adaptive.newHandle()) {
            @Override
            public ByteBuf allocate(ByteBufAllocator alloc) {
                return alloc.ioBuffer(guess());
            }

            @Override
            public int guess() {
                return decoder.readBytes(delegate().guess());
            }
        };
    }
}
