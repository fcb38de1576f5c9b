package io.kraft.metadata.controller;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A partition leader asking to change its ISR, stating the leader and partition epochs it acts on, and for each
 * member of the new ISR the broker epoch the leader last saw it fetch with (KIP-903, AlterPartition v3's
 * {@code NewIsrWithEpochs}), so the controller refuses to let a replica join on the word of an older incarnation.
 *
 * @param newIsrBrokerEpochs in {@code newIsr} order; {@link #UNKNOWN_BROKER_EPOCH} where the leader does not know
 */
public record AlterPartitionRequest(int brokerId, long brokerEpoch, UUID topicId, int partitionId, int leaderEpoch,
                                    List<Integer> newIsr, int partitionEpoch, List<Long> newIsrBrokerEpochs) {
    /** A member's broker epoch the leader does not know: the controller does not check it (as Kafka's -1). */
    public static final long UNKNOWN_BROKER_EPOCH = -1L;

    public AlterPartitionRequest {
        Objects.requireNonNull(topicId, "topicId");
        newIsr = List.copyOf(newIsr);
        newIsrBrokerEpochs = newIsrBrokerEpochs.isEmpty() ? unknown(newIsr.size()) : List.copyOf(newIsrBrokerEpochs);
        if (newIsrBrokerEpochs.size() != newIsr.size()) {
            throw new IllegalArgumentException("ISR " + newIsr + " has " + newIsrBrokerEpochs.size()
                    + " broker epochs, not one per member");
        }
    }

    /** A request without the members' broker epochs (none is checked). */
    public AlterPartitionRequest(int brokerId, long brokerEpoch, UUID topicId, int partitionId, int leaderEpoch,
                                 List<Integer> newIsr, int partitionEpoch) {
        this(brokerId, brokerEpoch, topicId, partitionId, leaderEpoch, newIsr, partitionEpoch, List.of());
    }

    private static List<Long> unknown(int count) {
        return Collections.unmodifiableList(new ArrayList<>(Collections.nCopies(count, UNKNOWN_BROKER_EPOCH)));
    }
}
