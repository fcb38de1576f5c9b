package io.kraft.raft;

import java.util.List;

/**
 * A run of consecutive committed data records of one epoch, handed to the state machine in offset order. It holds
 * whole appended batches: the records of one {@link RaftClient#append} are never split across two runs.
 */
public record CommittedBatch(long baseOffset, int epoch, List<byte[]> records) {

    public CommittedBatch {
        records = List.copyOf(records);
        if (records.isEmpty()) {
            throw new IllegalArgumentException("a committed batch holds at least one record");
        }
    }

    public long lastOffset() {
        return baseOffset + records.size() - 1;
    }
}
