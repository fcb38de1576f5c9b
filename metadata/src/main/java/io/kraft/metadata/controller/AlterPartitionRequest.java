package io.kraft.metadata.controller;

import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A partition leader asking to change its ISR, stating the leader and partition epochs it acts on.
 */
public record AlterPartitionRequest(int brokerId, long brokerEpoch, UUID topicId, int partitionId, int leaderEpoch,
                                    List<Integer> newIsr, int partitionEpoch) {
    public AlterPartitionRequest {
        Objects.requireNonNull(topicId, "topicId");
        newIsr = List.copyOf(newIsr);
    }
}
