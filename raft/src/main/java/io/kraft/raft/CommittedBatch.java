package io.kraft.raft;

import java.util.List;

/** A run of consecutive committed data records of one epoch, handed to the state machine in offset order. */
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
