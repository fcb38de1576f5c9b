package io.kraft.metadata.controller;

import io.kraft.metadata.image.TopicIdPartition;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A broker reporting the log directory each of the named replicas now lives in (KIP-858's AssignReplicasToDirs),
 * e.g. after moving one between its log directories.
 */
public record AssignReplicasToDirsRequest(int brokerId, long brokerEpoch, Map<TopicIdPartition, UUID> directories) {
    public AssignReplicasToDirsRequest {
        directories = Map.copyOf(Objects.requireNonNull(directories, "directories"));
    }
}
