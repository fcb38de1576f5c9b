package io.kraft.broker.group.share.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kraft.broker.group.share.RecordState;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.protocol.message.WriteShareGroupStateRequest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a WriteShareGroupState partition must hold to be stored: a hostile one is refused, not thrown on. */
class ShareStateWireTest {
    private static final SharePartitionKey KEY = new SharePartitionKey("g", UUID.randomUUID(), 0);

    @Test
    void aSnapshotASharePartitionWritesIsAcceptedAndReadBackTheSame() {
        SharePartition.Snapshot snapshot = new SharePartition.Snapshot(5, List.of(
                new SharePartition.StateRange(5, 9, RecordState.ACKNOWLEDGED, 1),
                new SharePartition.StateRange(12, 12, RecordState.AVAILABLE, 2)));
        WriteShareGroupStateRequest request = ShareStateWire.writeRequest(KEY, 3, snapshot);
        WriteShareGroupStateRequest.PartitionData data = request.topics().get(0).partitions().get(0);
        assertNull(ShareStateWire.refusal(request.groupId(), data));
        assertEquals(snapshot, ShareStateWire.snapshot(data));
    }

    @Test
    void unknownStatesNegativeCountsAndRangesOutOfOrderOrBelowTheStartAreRefused() {
        assertNotNull(refusal(0, batch(0, 4, (byte) -1, 1)));
        assertNotNull(refusal(0, batch(0, 4, RecordState.AVAILABLE.code, -1)));
        assertNotNull(refusal(5, batch(3, 6, RecordState.AVAILABLE.code, 1)));
        assertNotNull(refusal(0, batch(4, 2, RecordState.AVAILABLE.code, 1)));
        assertNotNull(refusal(0, batch(0, 4, RecordState.AVAILABLE.code, 1), batch(4, 6, RecordState.ARCHIVED.code, 1)));
        assertNotNull(refusal(-1));
        assertNotNull(ShareStateWire.refusal(null, new WriteShareGroupStateRequest.PartitionData()));
    }

    private static String refusal(long startOffset, WriteShareGroupStateRequest.StateBatch... batches) {
        WriteShareGroupStateRequest.PartitionData data = new WriteShareGroupStateRequest.PartitionData()
                .setPartition(0).setStartOffset(startOffset);
        data.stateBatches().addAll(List.of(batches));
        return ShareStateWire.refusal("g", data);
    }

    private static WriteShareGroupStateRequest.StateBatch batch(long first, long last, byte state, int count) {
        return new WriteShareGroupStateRequest.StateBatch().setFirstOffset(first).setLastOffset(last)
                .setDeliveryState(state).setDeliveryCount((short) count);
    }
}
