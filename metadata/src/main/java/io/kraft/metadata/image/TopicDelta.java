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
    private final Map<Integer, PartitionRegistration> partitionChanges = new HashMap<>();

    public TopicDelta(TopicImage image) {
        this.image = image;
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

    public void replay(PartitionRecord record) {
        partitionChanges.put(record.getPartitionId(), PartitionRegistration.fromRecord(record));
    }

    public void replay(PartitionChangeRecord record) {
        PartitionRegistration current = partition(record.getPartitionId());
        if (current == null) {
            throw new InvalidMetadataRecordException("Partition change for unknown partition "
                    + record.getPartitionId() + " of topic " + image.name());
        }
        partitionChanges.put(record.getPartitionId(), current.merge(record));
    }

    public TopicImage apply() {
        if (partitionChanges.isEmpty()) {
            return image;
        }
        Map<Integer, PartitionRegistration> partitions = new HashMap<>(image.partitions());
        partitions.putAll(partitionChanges);
        return new TopicImage(image.name(), image.id(), partitions);
    }
}
