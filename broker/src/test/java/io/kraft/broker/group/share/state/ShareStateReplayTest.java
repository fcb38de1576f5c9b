package io.kraft.broker.group.share.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kraft.broker.group.CoordinatorLogEntry;
import io.kraft.broker.group.CoordinatorRecord;
import io.kraft.broker.group.CoordinatorRecordCodec;
import io.kraft.broker.group.share.RecordState;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code __share_group_state} records: their bytes round trip, and a replay keeps each share partition's last state. */
class ShareStateReplayTest {
    private static final SharePartitionKey JOBS_0 = new SharePartitionKey("g", new UUID(1, 2), 0);
    private static final SharePartitionKey JOBS_1 = new SharePartitionKey("g", new UUID(1, 2), 1);

    private static SharePartition.Snapshot snapshot(long start, SharePartition.StateRange... ranges) {
        return new SharePartition.Snapshot(start, List.of(ranges));
    }

    @Test
    void aSnapshotRecordRoundTrips() {
        CoordinatorRecord.ShareSnapshot record = new CoordinatorRecord.ShareSnapshot(JOBS_0, snapshot(7,
                new SharePartition.StateRange(7, 9, RecordState.AVAILABLE, 2),
                new SharePartition.StateRange(10, 10, RecordState.ACKNOWLEDGED, 1),
                new SharePartition.StateRange(11, 20, RecordState.ARCHIVED, 5)));
        assertEquals(record, CoordinatorRecordCodec.decode(CoordinatorRecordCodec.encodeKey(record),
                CoordinatorRecordCodec.encodeValue(record)));

        CoordinatorRecord.ShareSnapshot tombstone = new CoordinatorRecord.ShareSnapshot(JOBS_1, null);
        assertNull(CoordinatorRecordCodec.encodeValue(tombstone));
        assertEquals(tombstone, CoordinatorRecordCodec.decode(CoordinatorRecordCodec.encodeKey(tombstone), null));
    }

    @Test
    void replayGivesTheLastWrittenStateOfEachSharePartition() {
        SharePartition.Snapshot first = snapshot(0, new SharePartition.StateRange(0, 4, RecordState.AVAILABLE, 1));
        SharePartition.Snapshot second = snapshot(3, new SharePartition.StateRange(3, 4, RecordState.ARCHIVED, 5));
        SharePartition.Snapshot other = snapshot(100, List.<SharePartition.StateRange>of()
                .toArray(SharePartition.StateRange[]::new));
        ShareStateReplay replay = new ShareStateReplay();
        replay.replay(List.of(
                records(new CoordinatorRecord.ShareSnapshot(JOBS_0, first),
                        new CoordinatorRecord.ShareSnapshot(JOBS_1, other)),
                records(new CoordinatorRecord.ShareSnapshot(JOBS_0, second)),
                records(new CoordinatorRecord.ShareSnapshot(JOBS_1, null))));
        assertEquals(java.util.Map.of(JOBS_0, second), replay.states());
    }

    /** As the log gives them back: each batch read through the codec. */
    private static CoordinatorLogEntry records(CoordinatorRecord... records) {
        return new CoordinatorLogEntry.Records(CoordinatorLogEntry.NO_PRODUCER, List.of(records).stream()
                .map(r -> CoordinatorRecordCodec.decode(CoordinatorRecordCodec.encodeKey(r),
                        CoordinatorRecordCodec.encodeValue(r)))
                .toList());
    }
}
