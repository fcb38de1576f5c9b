package io.kraft.broker.fetch;

/**
 * How far a read may go: followers read to the log end, consumers to the high watermark. Without
 * transactions the last stable offset equals the high watermark, so read_committed consumers read to it too.
 */
public enum FetchIsolation {
    LOG_END,
    HIGH_WATERMARK;

    /** A fetch from {@code replicaId} (>= 0 for a follower) at Kafka's isolation level byte. */
    public static FetchIsolation of(int replicaId) {
        return replicaId >= 0 ? LOG_END : HIGH_WATERMARK;
    }
}
