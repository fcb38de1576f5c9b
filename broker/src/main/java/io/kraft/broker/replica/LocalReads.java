package io.kraft.broker.replica;

import io.kraft.broker.fetch.FetchParams;
import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over a fetch's partitions in the local logs: shares the fetch's byte budget among them (the first
 * non-empty partition's first batch whole, KIP-74), turns failures into error reads, and applies the leader's
 * replication throttle (KIP-73): a follower outside the ISR of a throttled partition reads nothing while the
 * leader's throttled rate is over its bound, and the bytes of throttled partitions sent are counted.
 */
public final class LocalReads {
    private static final Logger LOG = LoggerFactory.getLogger(LocalReads.class);

    private final Function<TopicPartition, Partition> partitionOrError;
    private final Predicate<TopicPartition> hosted;
    private final Predicate<TopicPartition> offline;
    private final ReplicationQuota leaderQuota;
    private final int fetchMaxBytes;

    /**
     * @param partitionOrError the hosted partition, or a {@link ReplicaException} with the error a request gets
     * @param hosted           whether the partition is hosted here now
     * @param offline          whether the partition's log directory failed
     */
    LocalReads(Function<TopicPartition, Partition> partitionOrError, Predicate<TopicPartition> hosted,
               Predicate<TopicPartition> offline, ReplicationQuota leaderQuota, int fetchMaxBytes) {
        this.partitionOrError = partitionOrError;
        this.hosted = hosted;
        this.offline = offline;
        this.leaderQuota = leaderQuota;
        this.fetchMaxBytes = fetchMaxBytes;
    }

    /** Whether a follower's read of the partition is held back by the leader's throttle now. */
    boolean isThrottled(FetchParams params, Partition partition) {
        return params.isFromFollower() && leaderQuota.isThrottled(partition.topicPartition())
                && !inIsr(partition, params.replicaId()) && leaderQuota.isExceeded();
    }

    /** Whether the broker is in the partition's current ISR (false before its first role): never throttled then. */
    public static boolean inIsr(Partition partition, int brokerId) {
        PartitionRegistration registration = partition.registration();
        return registration != null && registration.isr().contains(brokerId);
    }

    /** Reads every requested partition once, without waiting. */
    LinkedHashMap<TopicPartition, PartitionRead> read(FetchParams params,
                                                      LinkedHashMap<TopicPartition, FetchPartitionRequest> requests) {
        LinkedHashMap<TopicPartition, PartitionRead> results = new LinkedHashMap<>();
        int remainingBytes = Math.min(params.maxBytes(), fetchMaxBytes);
        boolean minOneBatch = true;
        long throttledBytes = 0;
        for (Map.Entry<TopicPartition, FetchPartitionRequest> entry : requests.entrySet()) {
            TopicPartition tp = entry.getKey();
            FetchPartitionRequest request = entry.getValue();
            PartitionRead read;
            try {
                Partition partition = partitionOrError.apply(tp);
                int maxBytes = Math.min(request.partitionMaxBytes(), remainingBytes);
                boolean held = isThrottled(params, partition);
                if (held) {
                    leaderQuota.recordHeldBack();
                }
                // A held-back read still answers offsets and errors, with no records.
                read = partition.read(request.fetchOffset(), request.currentLeaderEpoch(), request.lastFetchedEpoch(),
                        held ? 0 : maxBytes, minOneBatch && !held, params.isolation(), params.fetchOnlyFromLeader());
                if (params.isFromFollower() && leaderQuota.isThrottled(tp)) {
                    throttledBytes += read.sizeBytes();
                }
            } catch (ReplicaException e) {
                read = PartitionRead.failed(e.error());
            } catch (RuntimeException e) {
                read = failed(tp, request, e);
            }
            if (read.sizeBytes() > 0) {
                minOneBatch = false;
                remainingBytes = Math.max(0, remainingBytes - read.sizeBytes());
            }
            results.put(tp, read);
        }
        leaderQuota.record(throttledBytes);
        return results;
    }

    private PartitionRead failed(TopicPartition tp, FetchPartitionRequest request, RuntimeException e) {
        Errors error = Errors.forException(e);
        if (error == Errors.UNKNOWN_SERVER_ERROR) {
            LOG.error("Read of {} at offset {} failed", tp, request.fetchOffset(), e);
        } else {
            LOG.debug("Read of {} at offset {} failed with {}: {}", tp, request.fetchOffset(), error, e.getMessage());
        }
        // A partition that left this broker during the read (its log closed under it) moved away.
        boolean movedAway = !hosted.test(tp) && (error == Errors.UNKNOWN_SERVER_ERROR
                || error == Errors.KAFKA_STORAGE_ERROR && !offline.test(tp));
        return PartitionRead.failed(movedAway ? Errors.NOT_LEADER_OR_FOLLOWER : error);
    }
}
