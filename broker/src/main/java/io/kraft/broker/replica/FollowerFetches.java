package io.kraft.broker.replica;

import io.kraft.broker.fetch.FetchParams;
import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's side of its followers' fetches: which fetches may count (KIP-903's broker epoch, KIP-320's diverging
 * epoch), and, for those that do, the follower's position, the high watermark it moves and the ISR expansion it may
 * propose.
 */
final class FollowerFetches {
    private static final Logger LOG = LoggerFactory.getLogger(FollowerFetches.class);

    private final int brokerId;
    private final Supplier<MetadataImage> image;
    private final Function<TopicPartition, Partition> partitions;
    /** Null without replication: positions still move the high watermark, no ISR change is proposed. */
    private final IsrProposals isrProposals;
    private final Consumer<TopicPartition> completeWaitingOn;
    private final LongSupplier clock;

    FollowerFetches(int brokerId, Supplier<MetadataImage> image, Function<TopicPartition, Partition> partitions,
                    IsrProposals isrProposals, Consumer<TopicPartition> completeWaitingOn, LongSupplier clock) {
        this.brokerId = brokerId;
        this.image = image;
        this.partitions = partitions;
        this.isrProposals = isrProposals;
        this.completeWaitingOn = completeWaitingOn;
        this.clock = clock;
    }

    /**
     * KIP-903: a follower's fetch naming an older broker epoch than its broker's registration here comes from an
     * earlier incarnation (a process that has since restarted, perhaps without its data): it reads nothing and moves
     * nothing, and is answered STALE_BROKER_EPOCH. A newer epoch than the metadata here knows is served (the
     * metadata is behind), but the replica joins no ISR until the epochs agree ({@link IsrProposals}).
     */
    boolean isStaleIncarnation(FetchParams params) {
        if (params.replicaEpoch() == FetchParams.UNKNOWN_REPLICA_EPOCH) {
            return false;
        }
        BrokerRegistration registered = image.get().cluster().broker(params.replicaId());
        if (registered == null || params.replicaEpoch() >= registered.epoch()) {
            return false;
        }
        LOG.info("Broker {} refused a fetch from broker {} with broker epoch {}: it registered again with epoch {}",
                brokerId, params.replicaId(), params.replicaEpoch(), registered.epoch());
        return true;
    }

    /**
     * Records the fetch offsets of the partitions read without an error or a diverging epoch as the follower's log
     * end offsets; a partition whose state refuses it gets the error in {@code results}.
     */
    void recordPositions(int replicaId, long replicaEpoch, Map<TopicPartition, FetchPartitionRequest> requests,
                         Map<TopicPartition, PartitionRead> results) {
        long nowMs = clock.getAsLong();
        for (Map.Entry<TopicPartition, FetchPartitionRequest> entry : requests.entrySet()) {
            TopicPartition tp = entry.getKey();
            PartitionRead read = results.get(tp);
            if (read.error() != Errors.NONE || read.divergingEpoch().isPresent()) {
                // A diverging epoch (KIP-320) says the fetch offset is not a position in this log: the follower's
                // tail differs from the leader's there, so it is no log end offset until the follower truncates and
                // fetches again. Counting it would let a replica with a divergent tail join the ISR or move the
                // high watermark past records it does not have.
                continue;
            }
            Partition partition = partitions.apply(tp);
            if (partition == null) {
                continue;
            }
            try {
                if (partition.updateFollowerFetchState(replicaId, entry.getValue().fetchOffset(), replicaEpoch, nowMs)) {
                    completeWaitingOn.accept(tp);
                }
                if (isrProposals != null) {
                    isrProposals.maybeExpand(partition, replicaId, nowMs);
                }
            } catch (ReplicaException e) {
                results.put(tp, PartitionRead.failed(e.error(), partition.leaderId(), partition.leaderEpoch()));
            }
        }
    }
}
