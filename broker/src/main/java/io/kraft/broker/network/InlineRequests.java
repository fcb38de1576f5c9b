package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;

/**
 * Which requests run their handler on the connection's network thread instead of the handler pool: small consumer
 * Fetch requests. Their synchronous part is a look-up in the page cache, and their wait (a long poll) is a future;
 * handed to the pool such a request costs two thread wake-ups (network thread to handler, handler back to the
 * network thread), more than its handling, and a consumer waiting for each record pays them on every fetch. On a
 * TLS listener the network thread reads the fetched files anyway ({@link SliceChunkedInput}). Produce stays on the
 * pool: its append may fsync (flush.messages, flush.ms) or create a segment's files, which must not stop a network
 * thread's other connections; so do replicas' fetches, whose positions move high watermarks and complete produces.
 * Kafka runs every handler on its pool.
 */
final class InlineRequests {
    /** Fetch frames up to this size run inline: a fetch naming up to a few hundred partitions. */
    static final int MAX_INLINE_FRAME_BYTES = 16 * 1024;

    private InlineRequests() {
    }

    /**
     * @param frameBytes    the request's frame size
     * @param followerFetch whether it is a replica's Fetch
     */
    static boolean runsInline(ApiKey api, int frameBytes, boolean followerFetch) {
        return api == ApiKey.FETCH && !followerFetch && frameBytes <= MAX_INLINE_FRAME_BYTES;
    }
}
