package io.kraft.metadata.image;

import java.util.Map;
import java.util.Set;

/**
 * What a delta means for one broker's replicas: partitions it must now lead (it became leader or the
 * leader epoch changed), partitions it must now follow, and partitions of deleted topics (or from whose
 * replica set it was removed) it must delete. Values are the partitions' new registrations.
 */
public record LocalReplicaChanges(Map<TopicIdPartition, PartitionRegistration> leaders,
                                  Map<TopicIdPartition, PartitionRegistration> followers,
                                  Set<TopicIdPartition> deletes) {
    public LocalReplicaChanges {
        leaders = Map.copyOf(leaders);
        followers = Map.copyOf(followers);
        deletes = Set.copyOf(deletes);
    }

    public boolean isEmpty() {
        return leaders.isEmpty() && followers.isEmpty() && deletes.isEmpty();
    }
}
