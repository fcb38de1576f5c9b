package io.kraft.broker.group;

import java.util.List;

/**
 * What a {@code __consumer_offsets} partition holds, in log order, as the coordinator replays it: batches of records,
 * plain or written in a producer's transaction (TxnOffsetCommit), and the markers that commit or abort those
 * transactions (KIP-98). Replaying them is the only way a coordinator learns its state.
 */
public sealed interface CoordinatorLogEntry {

    /** No producer: the records of a plain (non-transactional) batch. */
    long NO_PRODUCER = -1L;

    /** The records of one batch; {@code producerId} is {@link #NO_PRODUCER} unless the batch is transactional. */
    record Records(long producerId, List<CoordinatorRecord> records) implements CoordinatorLogEntry {
        public Records {
            records = List.copyOf(records);
        }

        public boolean isTransactional() {
            return producerId != NO_PRODUCER;
        }
    }

    /** The end of {@code producerId}'s transaction in this partition: its records count only if committed. */
    record Marker(long producerId, boolean committed) implements CoordinatorLogEntry {
    }
}
