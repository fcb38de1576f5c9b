package io.kraft.broker.replica;

import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.ControlRecordType;
import io.kraft.storage.record.EndTransactionMarker;
import java.util.List;
import java.util.Objects;

/**
 * What a transaction coordinator asks the leaders of a transaction's partitions to write (KIP-98): the end of
 * producer {@code producerId}'s transaction at {@code producerEpoch}, committed or aborted, by the coordinator of
 * {@code coordinatorEpoch}. WriteTxnMarkers carries a list of these; the coordinator may also hand one to
 * {@link ReplicaManager#writeTxnMarkers} in-process.
 */
public record TxnMarker(long producerId, short producerEpoch, int coordinatorEpoch, ControlRecordType result,
                        List<TopicPartition> partitions) {
    public TxnMarker {
        Objects.requireNonNull(result, "result");
        partitions = List.copyOf(partitions);
    }

    /** The control record's value this marker writes. */
    public EndTransactionMarker endMarker() {
        return new EndTransactionMarker(result, coordinatorEpoch);
    }
}
