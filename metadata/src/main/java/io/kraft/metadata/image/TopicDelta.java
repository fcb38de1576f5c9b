package io.kraft.metadata.image;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** Partition changes of one topic on top of its {@link TopicImage} (empty for a topic created in the delta). */
public final class TopicDelta {
    private final TopicImage image;
    private final MetadataChangeListener listener;
    private Map<Integer, PartitionRegistration> partitionChanges = new HashMap<>();
    /**
     * A topic loaded whole from a snapshot, while no record changed it: {@link #partitionChanges} is its (read-only)
     * partition map, shared rather than copied, and {@link #apply()} is this topic as it is. Null otherwise.
     */
    private TopicImage whole;
    /** Partitions in {@link #partitionChanges} that the image does not have, so counting stays O(1). */
    private int newPartitions;

    public TopicDelta(TopicImage image) {
        this(image, MetadataChangeListener.NONE);
    }

    public TopicDelta(TopicImage image, MetadataChangeListener listener) {
        this.image = image;
        this.listener = listener;
    }

    /**
     * A topic new to the delta with all its partitions at once (a snapshot's topic built in bulk): its partitions
     * count as created, without one map entry per partition being copied.
     */
    static TopicDelta created(TopicImage whole, MetadataChangeListener listener) {
        TopicDelta delta = new TopicDelta(new TopicImage(whole.name(), whole.id(), Map.of()), listener);
        delta.partitionChanges = whole.partitions();
        delta.whole = whole;
        delta.newPartitions = whole.partitions().size();
        if (listener != MetadataChangeListener.NONE) {
            whole.partitions().forEach((partitionId, partition) ->
                    listener.partitionChanged(new TopicIdPartition(whole.id(), partitionId), null, partition));
        }
        return delta;
    }

    public TopicImage image() {
        return image;
    }

    public UUID id() {
        return image.id();
    }

    public String name() {
        return image.name();
    }

    /** Partitions created or changed in this delta, in their new state. */
    public Map<Integer, PartitionRegistration> partitionChanges() {
        return Collections.unmodifiableMap(partitionChanges);
    }

    /** The partition including this delta's changes, or null. */
    public PartitionRegistration partition(int partitionId) {
        PartitionRegistration changed = partitionChanges.get(partitionId);
        return changed != null ? changed : image.partition(partitionId);
    }

    /** How many partitions the topic has including this delta's changes. */
    public int partitionCount() {
        return image.partitions().size() + newPartitions;
    }

    /** Every partition including this delta's changes (a copy). */
    public Map<Integer, PartitionRegistration> partitions() {
        Map<Integer, PartitionRegistration> partitions = new HashMap<>(image.partitions());
        partitions.putAll(partitionChanges);
        return partitions;
    }

    public void replay(PartitionRecord record) {
        change(record.getPartitionId(), PartitionRegistration.fromRecord(record));
    }

    public void replay(PartitionChangeRecord record) {
        PartitionRegistration current = partition(record.getPartitionId());
        if (current == null) {
            throw new InvalidMetadataRecordException("Partition change for unknown partition "
                    + record.getPartitionId() + " of topic " + image.name());
        }
        change(record.getPartitionId(), current.merge(record));
    }

    private void change(int partitionId, PartitionRegistration next) {
        PartitionRegistration before = partition(partitionId);
        if (whole != null) {
            // A later record changes a topic loaded whole: from now on its changes are a map of their own.
            partitionChanges = new HashMap<>(partitionChanges);
            whole = null;
        }
        if (partitionChanges.put(partitionId, next) == null && image.partition(partitionId) == null) {
            newPartitions++;
        }
        listener.partitionChanged(new TopicIdPartition(image.id(), partitionId), before, next);
    }

    /** Reports every partition removed, as its topic goes. */
    void reportRemoved() {
        partitions().forEach((partitionId, partition) ->
                listener.partitionChanged(new TopicIdPartition(image.id(), partitionId), partition, null));
    }

    public TopicImage apply() {
        if (whole != null) {
            return whole;
        }
        if (partitionChanges.isEmpty()) {
            return image;
        }
        PersistentMaps.Builder<Integer, PartitionRegistration> partitions = PersistentMaps.edit(image.partitions());
        partitionChanges.forEach(partitions::put);
        return new TopicImage(image.name(), image.id(), partitions.build());
    }
}
