package io.kraft.broker.group.share.state;

import io.kraft.broker.group.CoordinatorLogEntry;
import io.kraft.broker.group.CoordinatorRecord;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays a {@code __share_group_state} partition in log order into the last snapshot of each share partition
 * (tombstones forget one). A plain object; other records (none are written to this topic) are ignored.
 */
public final class ShareStateReplay {
    private final Map<SharePartitionKey, SharePartition.Snapshot> states = new HashMap<>();

    public void replay(List<CoordinatorLogEntry> entries) {
        for (CoordinatorLogEntry entry : entries) {
            if (entry instanceof CoordinatorLogEntry.Records batch) {
                for (CoordinatorRecord record : batch.records()) {
                    if (record instanceof CoordinatorRecord.ShareSnapshot share) {
                        apply(share);
                    }
                }
            }
        }
    }

    public void apply(CoordinatorRecord.ShareSnapshot share) {
        if (share.isTombstone()) {
            states.remove(share.key());
        } else {
            states.put(share.key(), share.snapshot());
        }
    }

    /** The last state of every share partition written to the partition. */
    public Map<SharePartitionKey, SharePartition.Snapshot> states() {
        return states;
    }
}
