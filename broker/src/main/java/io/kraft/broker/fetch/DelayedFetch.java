package io.kraft.broker.fetch;

import io.kraft.broker.replica.DelayedOperation;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A fetch long-polling for {@code min_bytes} of new data for up to {@code max_wait_ms}. Appends and high
 * watermark moves on its partitions re-check it; it also completes early when one of its partitions fails
 * (leadership moved, offset out of range, epoch fenced) or a follower must truncate. Checks judge from offsets
 * whether a partition has anything new and read the log only to count bytes toward a {@code min_bytes} above one;
 * when it completes it reads, so it answers with whatever is there by then.
 */
public final class DelayedFetch extends DelayedOperation {
    private final FetchParams params;
    private final LinkedHashMap<TopicPartition, FetchPartitionRequest> partitions;
    private final ReplicaManager replicaManager;
    private final CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> result;

    public DelayedFetch(FetchParams params, LinkedHashMap<TopicPartition, FetchPartitionRequest> partitions,
                 ReplicaManager replicaManager, CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> result) {
        super(params.maxWaitMs());
        this.params = params;
        this.partitions = partitions;
        this.replicaManager = replicaManager;
        this.result = result;
    }

    @Override
    protected boolean tryComplete() {
        long availableBytes = 0;
        for (Map.Entry<TopicPartition, FetchPartitionRequest> entry : partitions.entrySet()) {
            FetchPartitionRequest request = entry.getValue();
            Optional<Partition> partition = replicaManager.partition(entry.getKey());
            if (partition.isEmpty()) {
                return forceComplete();
            }
            FetchReadiness readiness = partition.get().readiness(request.fetchOffset(), request.currentLeaderEpoch(),
                    request.lastFetchedEpoch(), request.partitionMaxBytes(), params.isolation(),
                    params.fetchOnlyFromLeader());
            if (readiness == FetchReadiness.ANSWER_NOW) {
                return forceComplete();
            }
            // Data a throttled follower may not have now does not complete the wait (KIP-73).
            if (readiness == FetchReadiness.NOTHING_NEW || replicaManager.isLeaderThrottled(params, partition.get())) {
                continue;
            }
            if (params.minBytes() <= 1) {
                return forceComplete(); // any batch is enough: the common case costs no read before the answer's
            }
            // Only the index is consulted: the slice's size tells what a read would return.
            PartitionRead read = partition.get().read(request.fetchOffset(), request.currentLeaderEpoch(),
                    request.lastFetchedEpoch(), request.partitionMaxBytes(), true, params.isolation(),
                    params.fetchOnlyFromLeader());
            if (read.error() != Errors.NONE || read.divergingEpoch().isPresent()) {
                return forceComplete();
            }
            availableBytes += read.sizeBytes();
            if (availableBytes >= params.minBytes()) {
                return forceComplete();
            }
        }
        return false;
    }

    @Override
    protected void onComplete() {
        try {
            result.complete(replicaManager.readFromLocalLog(params, partitions));
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }
}
