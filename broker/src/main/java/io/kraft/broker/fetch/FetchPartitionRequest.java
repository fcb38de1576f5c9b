package io.kraft.broker.fetch;

/**
 * What a fetch asks of one partition.
 *
 * @param currentLeaderEpoch the epoch the fetcher believes current, checked when not -1 (KIP-320)
 * @param lastFetchedEpoch   a follower's epoch of its last fetched batch, -1 if none (v12+)
 */
public record FetchPartitionRequest(long fetchOffset, int currentLeaderEpoch, int lastFetchedEpoch,
                                    int partitionMaxBytes) {
}
