package io.kraft.metadata.controller;

import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataChangeListener;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.ScramCredential;
import io.kraft.metadata.image.ScramMechanism;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * What the active controller reads: the committed image plus a {@link MetadataDelta} of the records it generated
 * that have not committed yet, so a request sees every record generated before it in this epoch. Records get their
 * meaning only from the delta; the managers' indexes follow the entity changes it reports.
 *
 * <p>The pending delta is kept over an older committed image and may also hold records that have committed since:
 * its changes always override its base, so the view is the same whichever committed image it sits on. It is rebuilt
 * over the newest committed image (replaying only the uncommitted records, without reporting them again) when
 * nothing is in flight, or when what it holds has grown well past what is in flight, so the rebuilds cost O(1) per
 * record. Not thread-safe: the controller's event loop owns it.
 */
public final class SpeculativeMetadata {
    /** Rebuild once the delta holds this many times the uncommitted records, plus the slack. */
    private static final int REBUILD_FACTOR = 4;
    static final int DEFAULT_REBUILD_SLACK_RECORDS = 1024;

    private record Batch(List<MetadataRecord> records, long firstOffset, int epoch) {
        long lastOffset() {
            return firstOffset + records.size() - 1;
        }
    }

    /** Forwards entity changes to the indexes, except while a rebuild replays changes they already saw. */
    private final class Gate implements MetadataChangeListener {
        private final MetadataChangeListener indexes;
        private boolean muted;

        Gate(MetadataChangeListener indexes) {
            this.indexes = indexes;
        }

        @Override
        public void brokerChanged(BrokerRegistration before, BrokerRegistration after, long offset) {
            if (!muted) {
                indexes.brokerChanged(before, after, offset);
            }
        }

        @Override
        public void topicCreated(UUID topicId, String name) {
            if (!muted) {
                indexes.topicCreated(topicId, name);
            }
        }

        @Override
        public void topicRemoved(UUID topicId, String name) {
            if (!muted) {
                indexes.topicRemoved(topicId, name);
            }
        }

        @Override
        public void partitionChanged(TopicIdPartition partition, PartitionRegistration before,
                                     PartitionRegistration after) {
            if (!muted) {
                indexes.partitionChanged(partition, before, after);
            }
        }

        @Override
        public void transactionChanged(TransactionMetadata before, TransactionMetadata after) {
            if (!muted) {
                indexes.transactionChanged(before, after);
            }
        }

        @Override
        public void aclChanged(UUID id, StandardAcl before, StandardAcl after) {
            if (!muted) {
                indexes.aclChanged(id, before, after);
            }
        }
    }

    private final Gate gate;
    private final int rebuildSlackRecords;
    private final ArrayDeque<Batch> uncommitted = new ArrayDeque<>();
    private MetadataImage committed;
    private MetadataDelta pending;
    /** Records in {@link #uncommitted}, including a committed prefix of its first batch. */
    private long queuedRecords;
    private long recordsInPending;

    /**
     * @param indexes             hears every entity change of the records replayed from now on
     * @param rebuildSlackRecords how many committed records the delta may hold beyond the factor before a rebuild
     */
    SpeculativeMetadata(MetadataImage committed, MetadataChangeListener indexes, int rebuildSlackRecords) {
        this.committed = Objects.requireNonNull(committed, "committed");
        this.gate = new Gate(Objects.requireNonNull(indexes, "indexes"));
        this.rebuildSlackRecords = rebuildSlackRecords;
        this.pending = new MetadataDelta(committed, gate);
    }

    /**
     * Adds records this controller generated and is appending at consecutive offsets from {@code firstOffset}.
     *
     * @throws io.kraft.metadata.InvalidMetadataRecordException if a record does not apply; the view is then
     *         unusable (part of the batch may be in it) and must be dropped
     */
    void replay(List<MetadataRecord> records, long firstOffset, int epoch) {
        if (records.isEmpty()) {
            return;
        }
        pending.replayBatch(records, firstOffset, epoch);
        uncommitted.add(new Batch(List.copyOf(records), firstOffset, epoch));
        queuedRecords += records.size();
        recordsInPending += records.size();
    }

    /**
     * The committed image moved to {@code image}, which holds only records this view has (its own appends in this
     * epoch, committed in order). Raft commits runs of records, not append batches, so the image may end inside a
     * batch.
     *
     * @throws IllegalStateException if the image holds a record this view does not: the view no longer describes the
     *         log and must be dropped
     */
    void commit(MetadataImage image) {
        if (image.offset() > pending.offset()) {
            throw new IllegalStateException("Committed offset " + image.offset()
                    + " is past the last record this controller generated, " + pending.offset());
        }
        committed = image;
        while (!uncommitted.isEmpty() && uncommitted.peek().lastOffset() <= image.offset()) {
            queuedRecords -= uncommitted.poll().records().size();
        }
        if (uncommitted.isEmpty()) {
            pending = new MetadataDelta(image, gate);
            recordsInPending = 0;
        } else if (recordsInPending > REBUILD_FACTOR * uncommittedRecords() + rebuildSlackRecords) {
            rebuild();
        }
    }

    /**
     * The committed image moved to {@code image} by records this view did not generate (a standby follows the log
     * this way, its indexes fed by the committed delta): the view becomes the image, at no cost.
     *
     * @throws IllegalStateException if this view holds uncommitted records of its own
     */
    void follow(MetadataImage image) {
        if (!uncommitted.isEmpty()) {
            throw new IllegalStateException("A view with uncommitted records up to " + pending.offset()
                    + " cannot follow the committed image to " + image.offset());
        }
        committed = image;
        pending = new MetadataDelta(image, gate);
        recordsInPending = 0;
    }

    /** Records of the queued batches after the committed offset (the first batch may be partly committed). */
    private long uncommittedRecords() {
        return queuedRecords - committedPrefix(uncommitted.peek());
    }

    private int committedPrefix(Batch batch) {
        return batch == null ? 0 : (int) Math.max(0, committed.offset() + 1 - batch.firstOffset());
    }

    private void rebuild() {
        gate.muted = true;
        try {
            MetadataDelta fresh = new MetadataDelta(committed, gate);
            for (Batch batch : uncommitted) {
                int skip = committedPrefix(batch);
                fresh.replayBatch(batch.records().subList(skip, batch.records().size()), batch.firstOffset() + skip,
                        batch.epoch());
            }
            pending = fresh;
            recordsInPending = uncommittedRecords();
        } finally {
            gate.muted = false;
        }
    }

    /** The last committed image this view knows. */
    public MetadataImage committedImage() {
        return committed;
    }

    /** The offset of the last record in the view, committed or not. */
    public long lastOffset() {
        return pending.offset();
    }

    /** Whether records this controller generated are still waiting to commit. */
    public boolean hasUncommitted() {
        return !uncommitted.isEmpty();
    }

    /** How many records the pending delta holds, committed or not (tests watch the rebuilds with it). */
    long recordsInPending() {
        return recordsInPending;
    }

    public BrokerRegistration broker(int brokerId) {
        return pending.broker(brokerId);
    }

    public UUID topicId(String name) {
        return pending.topicId(name);
    }

    public String topicName(UUID topicId) {
        return pending.topicName(topicId);
    }

    public PartitionRegistration partition(UUID topicId, int partitionId) {
        return pending.partition(topicId, partitionId);
    }

    public int partitionCount(UUID topicId) {
        return pending.partitionCount(topicId);
    }

    public Map<String, String> configs(ConfigResource resource) {
        return pending.configs(resource);
    }

    public long nextProducerId() {
        return pending.nextProducerId();
    }

    public int featureLevel(String name) {
        return pending.featureLevel(name);
    }

    /** The transactional id's state, or null if it is unknown. */
    public TransactionMetadata transaction(String transactionalId) {
        return pending.transaction(transactionalId);
    }

    /** The user's SCRAM credential for the mechanism, or null. */
    public ScramCredential scramCredential(String user, ScramMechanism mechanism) {
        return pending.scramCredential(user, mechanism);
    }

    /** The whole view as an image (a copy of everything: for comparisons and inspection, not for hot paths). */
    public MetadataImage image(MetadataProvenance provenance) {
        return pending.apply(provenance);
    }
}
