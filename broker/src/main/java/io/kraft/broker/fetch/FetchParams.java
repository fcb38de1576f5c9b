package io.kraft.broker.fetch;

/**
 * The request-level settings of a fetch.
 *
 * @param replicaId      the fetching follower's broker id, -1 for consumers, -2 for debugging tools (may read followers)
 * @param maxWaitMs      how long to wait for {@code minBytes}
 * @param minBytes       answer as soon as this much record data is available
 * @param maxBytes       record bytes the whole response may carry (the first batch is sent whole regardless, KIP-74)
 * @param isolationLevel 0 read_uncommitted, 1 read_committed (consumers only)
 */
public record FetchParams(int replicaId, long maxWaitMs, int minBytes, int maxBytes, byte isolationLevel) {
    /**
     * The longest a fetch waits in the purgatory, whatever its max_wait_ms says: clients wait 500 ms by default,
     * and a long poll of hours from a hostile client would hold its slot that long. Kafka has no such cap.
     */
    public static final long MAX_WAIT_CAP_MS = 30_000;
    public static final int CONSUMER_REPLICA_ID = -1;
    public static final int DEBUGGING_REPLICA_ID = -2;

    /** A read_uncommitted fetch. */
    public FetchParams(int replicaId, long maxWaitMs, int minBytes, int maxBytes) {
        this(replicaId, maxWaitMs, minBytes, maxBytes, (byte) 0);
    }

    /** The params of a request's max_wait_ms, clamped to [0, {@link #MAX_WAIT_CAP_MS}]. */
    public static FetchParams of(int replicaId, long requestedMaxWaitMs, int minBytes, int maxBytes,
                                 byte isolationLevel) {
        return new FetchParams(replicaId, Math.max(0, Math.min(requestedMaxWaitMs, MAX_WAIT_CAP_MS)), minBytes,
                maxBytes, isolationLevel);
    }

    public boolean isFromFollower() {
        return replicaId >= 0;
    }

    public FetchIsolation isolation() {
        return FetchIsolation.of(replicaId, isolationLevel);
    }

    public boolean fetchOnlyFromLeader() {
        return replicaId != DEBUGGING_REPLICA_ID;
    }
}
