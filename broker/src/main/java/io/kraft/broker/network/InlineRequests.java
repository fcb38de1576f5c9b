package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;

/**
 * Which requests run their handler on the connection's network thread instead of the handler pool: small Fetch
 * requests, consumers' and replicas'. Their synchronous part is a look-up in the page cache, and their wait (a long
 * poll) is a future; handed to the pool such a request costs two thread wake-ups (network thread to handler, handler
 * back to the network thread), more than its handling. A consumer waiting for each record pays them on every fetch,
 * and an acks=all produce waits for its followers' next fetches, whose positions move the high watermark and
 * complete it. On a TLS listener the network thread reads the fetched files anyway ({@link SliceChunkedInput}).
 * Produce stays on the pool: its append may fsync (flush.messages, flush.ms) or create a segment's files, which must
 * not stop a network thread's other connections. Kafka runs every handler on its pool.
 */
final class InlineRequests {
    /** Fetch frames up to this size run inline: a fetch naming up to a few hundred partitions. */
    static final int MAX_INLINE_FRAME_BYTES = 16 * 1024;

    private InlineRequests() {
    }

    /** @param frameBytes the request's frame size */
    static boolean runsInline(ApiKey api, int frameBytes) {
        return api == ApiKey.FETCH && frameBytes <= MAX_INLINE_FRAME_BYTES;
    }
}
