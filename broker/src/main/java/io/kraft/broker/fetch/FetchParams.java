package io.kraft.broker.fetch;

/**
 * The request-level settings of a fetch.
 *
 * @param replicaId      the fetching follower's broker id, -1 for consumers, -2 for debugging tools (may read followers)
 * @param maxWaitMs      how long to wait for {@code minBytes}
 * @param minBytes       answer as soon as this much record data is available
 * @param maxBytes       record bytes the whole response may carry (the first batch is sent whole regardless, KIP-74)
 * @param isolationLevel 0 read_uncommitted, 1 read_committed (consumers only)
 * @param replicaEpoch   a follower's broker epoch (Fetch v15+ {@code replica_state.replica_epoch}, KIP-903), else
 *                       {@link #UNKNOWN_REPLICA_EPOCH}
 */
public record FetchParams(int replicaId, long maxWaitMs, int minBytes, int maxBytes, byte isolationLevel,
                          long replicaEpoch) {
    /**
     * The longest a fetch waits in the purgatory, whatever its max_wait_ms says: clients wait 500 ms by default,
     * and a long poll of hours from a hostile client would hold its slot that long. Kafka has no such cap.
     */
    public static final long MAX_WAIT_CAP_MS = 30_000;
    public static final int CONSUMER_REPLICA_ID = -1;
    public static final int DEBUGGING_REPLICA_ID = -2;
    /** A fetch that names no broker epoch (consumers, and followers below Fetch v15): not checked. */
    public static final long UNKNOWN_REPLICA_EPOCH = -1L;

    /** A read_uncommitted fetch. */
    public FetchParams(int replicaId, long maxWaitMs, int minBytes, int maxBytes) {
        this(replicaId, maxWaitMs, minBytes, maxBytes, (byte) 0);
    }

    /** A fetch without a broker epoch. */
    public FetchParams(int replicaId, long maxWaitMs, int minBytes, int maxBytes, byte isolationLevel) {
        this(replicaId, maxWaitMs, minBytes, maxBytes, isolationLevel, UNKNOWN_REPLICA_EPOCH);
    }

    /** The params of a request's max_wait_ms, clamped to [0, {@link #MAX_WAIT_CAP_MS}]. */
    public static FetchParams of(int replicaId, long requestedMaxWaitMs, int minBytes, int maxBytes,
                                 byte isolationLevel) {
        return of(replicaId, requestedMaxWaitMs, minBytes, maxBytes, isolationLevel, UNKNOWN_REPLICA_EPOCH);
    }

    /** The params of a request's max_wait_ms, clamped to [0, {@link #MAX_WAIT_CAP_MS}], with a broker epoch. */
    public static FetchParams of(int replicaId, long requestedMaxWaitMs, int minBytes, int maxBytes,
                                 byte isolationLevel, long replicaEpoch) {
        return new FetchParams(replicaId, Math.max(0, Math.min(requestedMaxWaitMs, MAX_WAIT_CAP_MS)), minBytes,
                maxBytes, isolationLevel, replicaEpoch);
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
