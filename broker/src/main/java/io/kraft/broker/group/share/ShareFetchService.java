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
import io.kraft.broker.group.share.state.ShareStatePersister;
import io.kraft.broker.protocol.LogText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partition leader's side of share groups (KIP-932): one {@link SharePartition} per (group, partition) it
 * leads, loaded from its durable state through the {@link ShareStatePersister} (or, with none, created at the log
 * start or the high watermark, {@code share.auto.offset.reset}), reads of the log from the first record to deliver,
 * acquisition of what was read, and acknowledgements, each change of state written back before acknowledgements
 * are answered. Each share partition is used under its own lock, held across the read so that what is acquired is
 * exactly what is sent; the state I/O happens on the persister's threads.
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
    private final ShareStatePersister persister;
    private final LongSupplier clock;
    private final Map<SharePartitionKey, Held> partitions = new ConcurrentHashMap<>();
    /** The share partitions whose durable state is being read, before they serve their first fetch. */
    private final Map<SharePartitionKey, CompletableFuture<Void>> loads = new ConcurrentHashMap<>();

    /**
     * A share partition this broker serves, the leader epoch it was loaded in, and its durable side: the last state
     * handed to the persister and the chain of writes, so that writes of one share partition land in order.
     */
    private static final class Held {
        final SharePartition share;
        final int leaderEpoch;
        SharePartition.Snapshot lastWritten;
        CompletableFuture<Errors> writes = CompletableFuture.completedFuture(Errors.NONE);

        Held(SharePartition share, int leaderEpoch, SharePartition.Snapshot lastWritten) {
            this.share = share;
            this.leaderEpoch = leaderEpoch;
            this.lastWritten = lastWritten;
        }
    }

    public ShareFetchService(ReplicaManager replicas, Supplier<MetadataImage> images, ShareGroupConfig config,
                             ShareStatePersister persister, LongSupplier clock) {
        this.replicas = replicas;
        this.images = images;
        this.config = config;
        this.persister = persister;
        this.clock = clock;
    }

    public ShareGroupConfig config() {
        return config;
    }

    /**
     * Reads and acquires for {@code memberId} up to {@code maxRecords} records of one partition. A share partition
     * whose state is still being read from its share coordinator gives nothing yet (the caller asks again).
     */
    public PartitionFetch fetch(SharePartitionKey key, String memberId, int maxBytes, int maxRecords) {
        Optional<Partition> found = leader(key);
        if (found.isEmpty()) {
            return PartitionFetch.failed(images.get().topics().topic(key.topicId()) == null
                    ? Errors.UNKNOWN_TOPIC_ID : Errors.NOT_LEADER_OR_FOLLOWER);
        }
        Partition partition = found.get();
        if (!partition.isLeader()) {
            partitions.remove(key); // a later leadership here reads the durable state again
            return new PartitionFetch(Errors.NOT_LEADER_OR_FOLLOWER, FileSlice.empty(), List.of(),
                    partition.leaderId(), partition.leaderEpoch());
        }
        Held held = partitions.get(key);
        if (held == null || held.leaderEpoch != partition.leaderEpoch()) {
            if (held != null) {
                partitions.remove(key, held);
            }
            if (partitions.size() + loads.size() >= MAX_SHARE_PARTITIONS) {
                LOG.warn("Share partition {}-{} of group {} refused: this broker holds {} share partitions already",
                        key.topicId(), key.partition(), LogText.of(key.groupId()), MAX_SHARE_PARTITIONS);
                return PartitionFetch.failed(Errors.UNKNOWN_SERVER_ERROR);
            }
            load(key, partition.leaderEpoch());
            held = partitions.get(key); // present already when the state was at hand
            if (held == null || held.leaderEpoch != partition.leaderEpoch()) {
                return new PartitionFetch(Errors.NONE, FileSlice.empty(), List.of(), partition.leaderId(),
                        partition.leaderEpoch());
            }
        }
        SharePartition share = held.share;
        synchronized (share) {
            long now = clock.getAsLong();
            share.expireLocks(now);
            share.onLogStartOffset(partition.logStartOffset());
            long highWatermark = partition.highWatermark();
            if (!share.canAcquire(highWatermark) || maxRecords <= 0) {
                persistIfChanged(key, held);
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
            // Delivery counts are durable (KIP-932), so a record that keeps failing its consumer is archived in the
            // end even across restarts; the write is not waited for, the fetch answers at once.
            persistIfChanged(key, held);
            return new PartitionFetch(Errors.NONE, acquired.isEmpty() ? FileSlice.empty() : whole.slice(), acquired,
                    read.leaderId(), read.leaderEpoch());
        }
    }

    /**
     * Applies a member's acknowledgements of one partition and writes the resulting state: completes with the first
     * error, or NONE once every acknowledgement is applied and durable. A write that fails answers its error and
     * drops this broker's copy of the share partition, which is read again from its share coordinator, so no
     * acknowledgement counts that is not durable.
     */
    public CompletableFuture<Errors> acknowledge(SharePartitionKey key, String memberId, List<AckBatch> batches) {
        Held held = partitions.get(key);
        if (held == null) {
            return CompletableFuture.completedFuture(leader(key).isEmpty() ? Errors.NOT_LEADER_OR_FOLLOWER
                    : Errors.INVALID_RECORD_STATE);
        }
        Errors first = Errors.NONE;
        CompletableFuture<Errors> written;
        SharePartition share = held.share;
        synchronized (share) {
            share.expireLocks(clock.getAsLong());
            for (AckBatch batch : batches) {
                List<AcknowledgeType> types = new ArrayList<>(batch.types().size());
                for (byte code : batch.types()) {
                    AcknowledgeType type = AcknowledgeType.ofCode(code);
                    if (type == null) {
                        return CompletableFuture.completedFuture(Errors.INVALID_REQUEST);
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
            written = persistIfChanged(key, held);
        }
        Errors applied = first;
        return written.thenApply(error -> error == Errors.NONE ? applied : error);
    }

    /** Releases every record {@code memberId} of {@code groupId} holds here: it left, or its session closed. */
    public void releaseMember(String groupId, String memberId) {
        partitions.forEach((key, held) -> {
            if (key.groupId().equals(groupId)) {
                int released;
                synchronized (held.share) {
                    released = held.share.releaseMember(memberId);
                    persistIfChanged(key, held);
                }
                if (released > 0) {
                    LOG.info("Share partition {}-{} of group {}: released {} records of member {}", key.topicId(),
                            key.partition(), LogText.of(groupId), released, memberId);
                }
            }
        });
    }

    /** The share partition's state, or null when this broker holds none (describe, tests). */
    public SharePartition.Snapshot snapshot(SharePartitionKey key) {
        Held held = partitions.get(key);
        if (held == null) {
            return null;
        }
        synchronized (held.share) {
            return held.share.snapshot();
        }
    }

    /** Starts reading the durable state of {@code key} for this leadership, unless a read is under way. */
    private void load(SharePartitionKey key, int leaderEpoch) {
        CompletableFuture<Void> loading = new CompletableFuture<>();
        if (loads.putIfAbsent(key, loading) != null) {
            return;
        }
        persister.read(key, leaderEpoch).whenComplete((result, failure) -> {
            try {
                loaded(key, leaderEpoch, result, failure);
            } finally {
                loads.remove(key, loading);
                loading.complete(null);
            }
        });
    }

    private void loaded(SharePartitionKey key, int leaderEpoch, ShareStatePersister.ReadResult result,
                        Throwable failure) {
        if (failure != null || result.error() != Errors.NONE) {
            LOG.warn("Could not read the state of share partition {}-{} of group {}: {}", key.topicId(),
                    key.partition(), LogText.of(key.groupId()), failure != null ? failure.toString() : result.error());
            return;
        }
        Optional<Partition> partition = leader(key);
        if (partition.isEmpty() || !partition.get().isLeader() || partition.get().leaderEpoch() != leaderEpoch) {
            return; // leadership moved while reading: the next fetch reads again, or the new leader does
        }
        SharePartition share;
        if (result.snapshot() != null) {
            share = SharePartition.restore(config.partitionSettings(), result.snapshot());
            LOG.info("Share partition {}-{} of group {} resumes at offset {} with {} state ranges", key.topicId(),
                    key.partition(), LogText.of(key.groupId()), share.startOffset(), result.snapshot().ranges().size());
        } else {
            long start = config.resetToEarliest() ? partition.get().logStartOffset() : partition.get().highWatermark();
            share = new SharePartition(config.partitionSettings(), start);
            LOG.info("Share partition {}-{} of group {} starts at offset {}", key.topicId(), key.partition(),
                    LogText.of(key.groupId()), start);
        }
        Held held = new Held(share, leaderEpoch, result.snapshot());
        synchronized (share) {
            partitions.put(key, held);
            persistIfChanged(key, held); // a new share partition's start offset is durable from the start
        }
    }

    /**
     * Writes the share partition's state when it changed since the last write, after the writes before it; called
     * under the share partition's lock, the I/O happens on the persister's threads.
     */
    private CompletableFuture<Errors> persistIfChanged(SharePartitionKey key, Held held) {
        SharePartition.Snapshot now = held.share.snapshot();
        if (now.equals(held.lastWritten)) {
            return CompletableFuture.completedFuture(Errors.NONE);
        }
        held.lastWritten = now;
        // A copy dropped after a failed write writes nothing more: the copy read again in its place owns the state.
        CompletableFuture<Errors> write = held.writes.thenCompose(previous -> partitions.get(key) == held
                        ? persister.write(key, held.leaderEpoch, now)
                        : CompletableFuture.completedFuture(Errors.NOT_COORDINATOR))
                .exceptionally(failure -> Errors.UNKNOWN_SERVER_ERROR)
                .thenApply(error -> {
                    if (error != Errors.NONE && partitions.remove(key, held)) {
                        LOG.warn("Share partition {}-{} of group {}: state write failed ({}); reading it again",
                                key.topicId(), key.partition(), LogText.of(key.groupId()), error);
                    }
                    return toClientError(error);
                });
        held.writes = write;
        return write;
    }

    /**
     * What a consumer is told of a state write that failed: a fenced leader epoch means leadership moved (the client
     * looks the leader up again); anything else, that the share coordinator is not available now.
     */
    static Errors toClientError(Errors error) {
        return switch (error) {
            case NONE -> Errors.NONE;
            case FENCED_LEADER_EPOCH, NOT_LEADER_OR_FOLLOWER -> Errors.NOT_LEADER_OR_FOLLOWER;
            default -> Errors.COORDINATOR_NOT_AVAILABLE;
        };
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
