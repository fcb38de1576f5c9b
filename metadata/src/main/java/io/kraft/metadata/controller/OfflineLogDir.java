package io.kraft.metadata.controller;

import io.kraft.metadata.image.TopicIdPartition;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A log directory a broker reports failed (KIP-858), with the partitions it held whose replicas the controller has
 * not yet recorded there: the controller cannot know them otherwise, since it learns a replica's directory only
 * from such reports and from moves between directories (AssignReplicasToDirs).
 */
public record OfflineLogDir(UUID directoryId, List<TopicIdPartition> partitions) {
    public OfflineLogDir {
        Objects.requireNonNull(directoryId, "directoryId");
        partitions = List.copyOf(partitions);
    }
}
