package io.kraft.broker.fetch;

/**
 * How far a read may go: followers read to the log end, read_uncommitted consumers to the high watermark,
 * read_committed consumers to the last stable offset (KIP-98), with the aborted transactions of what they read.
 */
public enum FetchIsolation {
    LOG_END,
    HIGH_WATERMARK,
    TXN_COMMITTED;

    /** Kafka's isolation level byte for read_committed. */
    public static final byte READ_COMMITTED = 1;

    /** A fetch from {@code replicaId} (>= 0 for a follower), read_uncommitted for a consumer. */
    public static FetchIsolation of(int replicaId) {
        return of(replicaId, (byte) 0);
    }

    /** A fetch from {@code replicaId} (>= 0 for a follower) at Kafka's isolation level byte. */
    public static FetchIsolation of(int replicaId, byte isolationLevel) {
        if (replicaId >= 0) {
            return LOG_END;
        }
        return isolationLevel == READ_COMMITTED ? TXN_COMMITTED : HIGH_WATERMARK;
    }
}
