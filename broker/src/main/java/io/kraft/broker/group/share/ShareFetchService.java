package io.kraft.broker.group.share;

import io.kraft.broker.fetch.FetchParams;
import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.FileSlice;
import io.kraft.storage.log.TopicPartition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partition leader's side of share groups (KIP-932): one {@link SharePartition} per (group, partition) it
 * leads, created at the log start or the high watermark ({@code share.auto.offset.reset}), reads of the log from the
 * first record to deliver, acquisition of what was read, and acknowledgements. Each share partition is used under
 * its own lock, held across the read so that what is acquired is exactly what is sent.
 */
public final class ShareFetchService {
    private static final Logger LOG = LoggerFactory.getLogger(ShareFetchService.class);

    /** One partition's part of a share fetch: an error, or the records read and the ranges acquired of them. */
    public record PartitionFetch(Errors error, FileSlice records, List<SharePartition.AcquiredRange> acquired,
                                 int leaderId, int leaderEpoch) {
        static PartitionFetch failed(Errors error) {
            return new PartitionFetch(error, FileSlice.empty(), List.of(), -1, -1);
        }

        public boolean hasRecords() {
            return !acquired.isEmpty();
        }
    }

    /** One acknowledgement batch of a request, its types as wire codes. */
    public record AckBatch(long firstOffset, long lastOffset, List<Byte> types) {
    }

    /**
     * The most (group, partition) states a broker keeps: they live until the broker stops, so a client naming new
     * groups in ShareFetch must not grow them without bound (group.share.max.groups bounds the groups coordinated).
     */
    static final int MAX_SHARE_PARTITIONS = 10_000;

    private final ReplicaManager replicas;
    private final Supplier<MetadataImage> images;
    private final ShareGroupConfig config;
    private final LongSupplier clock;
    private final Map<SharePartitionKey, SharePartition> partitions = new ConcurrentHashMap<>();
    /** The leader epoch each share partition was created in. */
    private final Map<SharePartitionKey, Integer> leaderEpochs = new ConcurrentHashMap<>();

    public ShareFetchService(ReplicaManager replicas, Supplier<MetadataImage> images, ShareGroupConfig config,
                             LongSupplier clock) {
        this.replicas = replicas;
        this.images = images;
        this.config = config;
        this.clock = clock;
    }

    public ShareGroupConfig config() {
        return config;
    }

    /** Reads and acquires for {@code memberId} up to {@code maxRecords} records of one partition. */
    public PartitionFetch fetch(SharePartitionKey key, String memberId, int maxBytes, int maxRecords) {
        Optional<Partition> found = leader(key);
        if (found.isEmpty()) {
            return PartitionFetch.failed(images.get().topics().topic(key.topicId()) == null
                    ? Errors.UNKNOWN_TOPIC_ID : Errors.NOT_LEADER_OR_FOLLOWER);
        }
        Partition partition = found.get();
        if (!partition.isLeader()) {
            partitions.remove(key); // a later leadership here starts afresh, not from this stale state
            return new PartitionFetch(Errors.NOT_LEADER_OR_FOLLOWER, FileSlice.empty(), List.of(),
                    partition.leaderId(), partition.leaderEpoch());
        }
        SharePartition share = sharePartition(key, partition);
        if (share == null) {
            return PartitionFetch.failed(Errors.UNKNOWN_SERVER_ERROR);
        }
        synchronized (share) {
            long now = clock.getAsLong();
            share.expireLocks(now);
            share.onLogStartOffset(partition.logStartOffset());
            long highWatermark = partition.highWatermark();
            if (!share.canAcquire(highWatermark) || maxRecords <= 0) {
                return new PartitionFetch(Errors.NONE, FileSlice.empty(), List.of(), partition.leaderId(),
                        partition.leaderEpoch());
            }
            TopicPartition tp = topicPartition(key);
            LinkedHashMap<TopicPartition, FetchPartitionRequest> request = new LinkedHashMap<>();
            request.put(tp, new FetchPartitionRequest(share.nextFetchOffset(), -1, -1, maxBytes));
            PartitionRead read = replicas.readFromLocalLog(new FetchParams(FetchParams.CONSUMER_REPLICA_ID, 0, 0,
                    maxBytes), request).get(tp);
            if (read == null || read.error() != Errors.NONE) {
                return PartitionFetch.failed(read == null ? Errors.UNKNOWN_SERVER_ERROR : read.error());
            }
            BatchBounds.Whole whole = BatchBounds.of(read.records());
            if (whole.endOffset() < 0) {
                return new PartitionFetch(Errors.NONE, FileSlice.empty(), List.of(), read.leaderId(),
                        read.leaderEpoch());
            }
            List<SharePartition.AcquiredRange> acquired = share.acquire(memberId, whole.endOffset(), maxRecords, now);
            return new PartitionFetch(Errors.NONE, acquired.isEmpty() ? FileSlice.empty() : whole.slice(), acquired,
                    read.leaderId(), read.leaderEpoch());
        }
    }

    /** Applies a member's acknowledgements of one partition: the first error, or NONE when all applied. */
    public Errors acknowledge(SharePartitionKey key, String memberId, List<AckBatch> batches) {
        SharePartition share = partitions.get(key);
        if (share == null) {
            return leader(key).isEmpty() ? Errors.NOT_LEADER_OR_FOLLOWER : Errors.INVALID_RECORD_STATE;
        }
        Errors first = Errors.NONE;
        synchronized (share) {
            share.expireLocks(clock.getAsLong());
            for (AckBatch batch : batches) {
                List<AcknowledgeType> types = new java.util.ArrayList<>(batch.types().size());
                for (byte code : batch.types()) {
                    AcknowledgeType type = AcknowledgeType.ofCode(code);
                    if (type == null) {
                        return Errors.INVALID_REQUEST;
                    }
                    types.add(type);
                }
                SharePartition.AckResult result = share.acknowledge(memberId, batch.firstOffset(),
                        batch.lastOffset(), types);
                Errors error = switch (result) {
                    case OK -> Errors.NONE;
                    case INVALID_RECORD_STATE -> Errors.INVALID_RECORD_STATE;
                    case INVALID_REQUEST -> Errors.INVALID_REQUEST;
                };
                if (first == Errors.NONE) {
                    first = error;
                }
            }
        }
        return first;
    }

    /** Releases every record {@code memberId} of {@code groupId} holds here: it left, or its session closed. */
    public void releaseMember(String groupId, String memberId) {
        partitions.forEach((key, share) -> {
            if (key.groupId().equals(groupId)) {
                int released;
                synchronized (share) {
                    released = share.releaseMember(memberId);
                }
                if (released > 0) {
                    LOG.info("Share partition {}-{} of group {}: released {} records of member {}", key.topicId(),
                            key.partition(), io.kraft.broker.protocol.LogText.of(groupId), released, memberId);
                }
            }
        });
    }

    /** The share partition's state, or null when this broker holds none (describe, tests). */
    public SharePartition.Snapshot snapshot(SharePartitionKey key) {
        SharePartition share = partitions.get(key);
        if (share == null) {
            return null;
        }
        synchronized (share) {
            return share.snapshot();
        }
    }

    /** The share partition of {@code key}, created if this broker holds fewer than {@link #MAX_SHARE_PARTITIONS}. */
    private SharePartition sharePartition(SharePartitionKey key, Partition partition) {
        SharePartition existing = partitions.get(key);
        if (existing != null && leaderEpochs.getOrDefault(key, -1) == partition.leaderEpoch()) {
            return existing;
        }
        if (existing != null) {
            // Leadership left and came back: what this broker remembers may be older than what the other leader
            // delivered, so start again as a new leader does (the state is not durable yet).
            partitions.remove(key, existing);
        }
        if (partitions.size() >= MAX_SHARE_PARTITIONS) {
            LOG.warn("Share partition {}-{} of group {} refused: this broker holds {} share partitions already",
                    key.topicId(), key.partition(), io.kraft.broker.protocol.LogText.of(key.groupId()),
                    MAX_SHARE_PARTITIONS);
            return null;
        }
        leaderEpochs.put(key, partition.leaderEpoch());
        return partitions.computeIfAbsent(key, k -> {
            long start = config.resetToEarliest() ? partition.logStartOffset() : partition.highWatermark();
            LOG.info("Share partition {}-{} of group {} starts at offset {}", k.topicId(), k.partition(),
                    io.kraft.broker.protocol.LogText.of(k.groupId()), start);
            return new SharePartition(config.partitionSettings(), start);
        });
    }

    /** The topic's name, or null when the image has no such topic. */
    public String topicName(java.util.UUID topicId) {
        TopicImage topic = images.get().topics().topic(topicId);
        return topic == null ? null : topic.name();
    }

    private Optional<Partition> leader(SharePartitionKey key) {
        TopicImage topic = images.get().topics().topic(key.topicId());
        if (topic == null) {
            return Optional.empty();
        }
        return replicas.partition(new TopicPartition(topic.name(), key.partition()));
    }

    private TopicPartition topicPartition(SharePartitionKey key) {
        return new TopicPartition(images.get().topics().topic(key.topicId()).name(), key.partition());
    }
}
