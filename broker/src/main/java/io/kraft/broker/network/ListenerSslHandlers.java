package io.kraft.broker.network;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

/** Makes the TLS handler of each connection of an SSL listener. */
final class ListenerSslHandlers {
    /**
     * Plaintext bytes handed to the engine per wrap: a whole chunk of fetched records ({@link
     * SliceChunkedInput#CHUNK_BYTES}). The OpenSSL engine cuts it into 16 KiB TLS records itself, into one
     * outbound buffer, where Netty's default (one record's payload per wrap) makes four wraps, four buffers and four
     * entries in the channel's outbound queue per chunk. The records on the wire are the same.
     */
    static final int WRAP_DATA_BYTES = SliceChunkedInput.CHUNK_BYTES;

    private ListenerSslHandlers() {
    }

    /** A server-side handler of {@code tls} for one accepted connection. */
    static SslHandler newHandler(SslContext tls, ByteBufAllocator alloc) {
        SslHandler handler = tls.newHandler(alloc);
        handler.setWrapDataSize(WRAP_DATA_BYTES);
        return handler;
    }
}
