package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A topic: its name, id and partitions by index. The partition map is persistent, so a change to one partition of a
 * large topic shares the others.
 */
public record TopicImage(String name, UUID id, Map<Integer, PartitionRegistration> partitions) {
    public TopicImage {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        partitions = PersistentMaps.of(partitions);
    }

    public PartitionRegistration partition(int partitionId) {
        return partitions.get(partitionId);
    }

    /** The topic record followed by one partition record per partition in index order. */
    public List<MetadataRecord> toRecords() {
        List<MetadataRecord> records = new ArrayList<>(partitions.size() + 1);
        records.add(MetadataRecords.of(TopicRecord.newBuilder().setName(name).setTopicId(Uuids.toProto(id)).build()));
        new TreeMap<>(partitions).forEach((partitionId, partition) -> records.add(partition.toRecord(id, partitionId)));
        return records;
    }
}
