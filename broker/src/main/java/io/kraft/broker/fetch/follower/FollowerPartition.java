package io.kraft.broker.fetch.follower;

import io.kraft.broker.replica.Partition;

/**
 * A partition a fetcher thread replicates, as handed over at the follower transition: the partition and the
 * leader epoch it follows (every fetch names it, and every write checks it).
 *
 * @param backoffUntilMs no fetch before this time (after an error)
 */
record FollowerPartition(Partition partition, int leaderEpoch, long backoffUntilMs) {

    FollowerPartition backedOffUntil(long untilMs) {
        return new FollowerPartition(partition, leaderEpoch, untilMs);
    }

    boolean isReady(long nowMs) {
        return nowMs >= backoffUntilMs;
    }
}
