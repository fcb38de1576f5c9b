package io.kraft.broker.fetch;

import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An incremental fetch session (KIP-227): the partitions one client fetches, with the epoch its next request
 * must carry. Its partitions and epoch change under its own lock.
 */
final class FetchSession {
    private final int id;
    private final boolean usesTopicIds;
    private final boolean privileged;
    private final LinkedHashMap<FetchPartitionKey, CachedPartition> partitions = new LinkedHashMap<>();
    private int nextEpoch = 1;
    private volatile long lastUsedMs;

    FetchSession(int id, boolean usesTopicIds, boolean privileged, Map<FetchPartitionKey, FetchPartitionRequest> initial,
                 long nowMs) {
        this.id = id;
        this.usesTopicIds = usesTopicIds;
        this.privileged = privileged;
        initial.forEach((key, request) -> partitions.put(key, new CachedPartition(request)));
        this.lastUsedMs = nowMs;
    }

    int id() {
        return id;
    }

    boolean usesTopicIds() {
        return usesTopicIds;
    }

    /** A follower's session, preferred over consumers' when the cache is full. */
    boolean privileged() {
        return privileged;
    }

    long lastUsedMs() {
        return lastUsedMs;
    }

    synchronized int size() {
        return partitions.size();
    }

    synchronized int nextEpoch() {
        return nextEpoch;
    }

    /**
     * Applies an incremental request: partitions added or updated, partitions forgotten; the epoch advances.
     *
     * @return every partition of the session after the change, to be read
     */
    synchronized LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> update(
            Map<FetchPartitionKey, FetchPartitionRequest> changed, List<FetchPartitionKey> forgotten, long nowMs) {
        for (FetchPartitionKey key : forgotten) {
            partitions.remove(key);
        }
        changed.forEach((key, request) -> {
            CachedPartition cached = partitions.get(key);
            if (cached == null) {
                partitions.put(key, new CachedPartition(request));
            } else {
                cached.update(request);
            }
        });
        nextEpoch = nextEpoch == Integer.MAX_VALUE ? 1 : nextEpoch + 1;
        lastUsedMs = nowMs;
        LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> all = new LinkedHashMap<>();
        partitions.forEach((key, cached) -> all.put(key, cached.request()));
        return all;
    }

    /**
     * Records what a response tells about a partition.
     *
     * @return whether an incremental response must carry it (true too if the session no longer holds it)
     */
    synchronized boolean absorb(FetchPartitionKey key, PartitionRead read) {
        CachedPartition cached = partitions.get(key);
        return cached == null || cached.absorbChanges(read);
    }
}
