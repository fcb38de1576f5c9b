package io.kraft.broker.replica;

/**
 * What a leader knows of one follower in its term.
 *
 * @param logEndOffset              the follower's log end offset (its last fetch offset)
 * @param lastCaughtUpTimeMs        the last time the follower had everything the leader had
 * @param leaderEndOffsetAtLastFetch the leader's log end offset when the follower last fetched
 * @param lastFetchTimeMs           when the follower last fetched
 * @param brokerEpoch               the broker epoch its last fetch named (KIP-903), or -1
 */
record FollowerState(long logEndOffset, long lastCaughtUpTimeMs, long leaderEndOffsetAtLastFetch,
                     long lastFetchTimeMs, long brokerEpoch) {
}
