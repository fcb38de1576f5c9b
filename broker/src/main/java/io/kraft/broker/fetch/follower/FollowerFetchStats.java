package io.kraft.broker.fetch.follower;

import java.util.concurrent.atomic.LongAdder;

/**
 * What a broker's fetcher threads have sent: requests, how many of them were full (session opened or restarted),
 * and the partitions they named, so an operator or a test can see that incremental sessions keep requests small.
 */
public final class FollowerFetchStats {
    private final LongAdder requests = new LongAdder();
    private final LongAdder fullRequests = new LongAdder();
    private final LongAdder partitionsNamed = new LongAdder();
    private final LongAdder superseded = new LongAdder();

    void recordRequest(boolean full, int partitions) {
        requests.increment();
        if (full) {
            fullRequests.increment();
        }
        partitionsNamed.add(partitions);
    }

    void recordSuperseded() {
        superseded.increment();
    }

    /** Fetches abandoned because a partition was added (or its leader epoch changed) while they were out. */
    public long superseded() {
        return superseded.sum();
    }

    public long requests() {
        return requests.sum();
    }

    public long fullRequests() {
        return fullRequests.sum();
    }

    /** Partitions named in requests (added, changed or, in a full request, every one), summed over requests. */
    public long partitionsNamed() {
        return partitionsNamed.sum();
    }
}
