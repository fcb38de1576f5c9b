package io.kraft.broker.replica;

import io.kraft.storage.log.TopicPartition;
import java.util.List;
import java.util.UUID;

/**
 * An ISR change a leader proposes to the controller (AlterPartition), stating the leader and partition
 * epochs it was decided on, so the controller refuses it if the partition moved on meanwhile, and the broker epoch
 * each member last fetched with (KIP-903; -1 where unknown, as for the leader itself).
 */
public record IsrChange(TopicPartition topicPartition, UUID topicId, int leaderEpoch, int partitionEpoch,
                        List<Integer> newIsr, List<Long> newIsrBrokerEpochs) {
    public IsrChange {
        newIsr = List.copyOf(newIsr);
        newIsrBrokerEpochs = List.copyOf(newIsrBrokerEpochs);
    }
}
