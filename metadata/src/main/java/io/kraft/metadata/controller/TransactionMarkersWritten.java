package io.kraft.metadata.controller;

import io.kraft.metadata.image.TopicIdPartition;
import java.util.List;

/**
 * A partition leader's report: it wrote the COMMIT ({@code commit}) or ABORT marker of the transaction of
 * {@code transactionalId} at producer id and epoch into {@code partitions}.
 */
public record TransactionMarkersWritten(int brokerId, long brokerEpoch, String transactionalId, long producerId,
                                        short producerEpoch, boolean commit, List<TopicIdPartition> partitions) {
    public TransactionMarkersWritten {
        partitions = List.copyOf(partitions);
    }
}
