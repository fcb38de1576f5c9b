package io.kraft.broker.group.share.state;

import io.kraft.broker.group.share.RecordState;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.protocol.message.ReadShareGroupStateRequest;
import io.kraft.broker.protocol.message.ReadShareGroupStateResponse;
import io.kraft.broker.protocol.message.WriteShareGroupStateRequest;
import io.kraft.broker.protocol.message.WriteShareGroupStateResponse;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;

/**
 * ReadShareGroupState (84) and WriteShareGroupState (85) bodies for one share partition, both ways: what the data
 * partition's leader sends and what the share coordinator answers. A write always carries the whole state.
 */
public final class ShareStateWire {
    /** Kafka's state epoch; ours is constant, since nothing here re-initialises a share partition's state. */
    static final int STATE_EPOCH = 0;

    private ShareStateWire() {
    }

    public static ReadShareGroupStateRequest readRequest(SharePartitionKey key, int leaderEpoch) {
        ReadShareGroupStateRequest request = new ReadShareGroupStateRequest().setGroupId(key.groupId());
        ReadShareGroupStateRequest.ReadStateData topic = new ReadShareGroupStateRequest.ReadStateData()
                .setTopicId(key.topicId());
        topic.partitions().add(new ReadShareGroupStateRequest.PartitionData().setPartition(key.partition())
                .setLeaderEpoch(leaderEpoch));
        request.topics().add(topic);
        return request;
    }

    /** The answer for one share partition: the error, or its state ({@code snapshot} null: none written, -1). */
    public static ReadShareGroupStateResponse.PartitionResult readResult(int partition, ShareStatePersister.ReadResult r) {
        ReadShareGroupStateResponse.PartitionResult out = new ReadShareGroupStateResponse.PartitionResult()
                .setPartition(partition).setErrorCode(r.error().code()).setStateEpoch(STATE_EPOCH).setStartOffset(-1);
        if (r.snapshot() != null) {
            out.setStartOffset(r.snapshot().startOffset());
            for (SharePartition.StateRange range : r.snapshot().ranges()) {
                out.stateBatches().add(new ReadShareGroupStateResponse.StateBatch().setFirstOffset(range.firstOffset())
                        .setLastOffset(range.lastOffset()).setDeliveryState(range.state().code)
                        .setDeliveryCount((short) range.deliveryCount()));
            }
        }
        return out;
    }

    /** The state in a read answer of one share partition (the first partition of the first topic). */
    public static ShareStatePersister.ReadResult readResult(ReadShareGroupStateResponse response) {
        if (response.results().isEmpty() || response.results().get(0).partitions().isEmpty()) {
            return new ShareStatePersister.ReadResult(Errors.UNKNOWN_SERVER_ERROR, null);
        }
        ReadShareGroupStateResponse.PartitionResult p = response.results().get(0).partitions().get(0);
        Errors error = Errors.forCode(p.errorCode());
        if (error != Errors.NONE || p.startOffset() < 0) {
            return new ShareStatePersister.ReadResult(error, null);
        }
        List<SharePartition.StateRange> ranges = new ArrayList<>(p.stateBatches().size());
        for (ReadShareGroupStateResponse.StateBatch b : p.stateBatches()) {
            ranges.add(new SharePartition.StateRange(b.firstOffset(), b.lastOffset(),
                    RecordState.ofCode(b.deliveryState()), b.deliveryCount()));
        }
        return new ShareStatePersister.ReadResult(Errors.NONE, new SharePartition.Snapshot(p.startOffset(), ranges));
    }

    public static WriteShareGroupStateRequest writeRequest(SharePartitionKey key, int leaderEpoch,
                                                           SharePartition.Snapshot snapshot) {
        WriteShareGroupStateRequest.PartitionData data = new WriteShareGroupStateRequest.PartitionData()
                .setPartition(key.partition()).setStateEpoch(STATE_EPOCH).setLeaderEpoch(leaderEpoch)
                .setStartOffset(snapshot.startOffset());
        for (SharePartition.StateRange range : snapshot.ranges()) {
            data.stateBatches().add(new WriteShareGroupStateRequest.StateBatch().setFirstOffset(range.firstOffset())
                    .setLastOffset(range.lastOffset()).setDeliveryState(range.state().code)
                    .setDeliveryCount((short) range.deliveryCount()));
        }
        WriteShareGroupStateRequest.WriteStateData topic = new WriteShareGroupStateRequest.WriteStateData()
                .setTopicId(key.topicId());
        topic.partitions().add(data);
        WriteShareGroupStateRequest request = new WriteShareGroupStateRequest().setGroupId(key.groupId());
        request.topics().add(topic);
        return request;
    }

    /**
     * Why one partition of a write request cannot be stored, or null if it can: the state must be what a share
     * partition could have written (a start offset, then ranges in order above it with known states), since a new
     * leader resumes from it.
     */
    public static String refusal(String groupId, WriteShareGroupStateRequest.PartitionData data) {
        if (groupId == null || groupId.isEmpty()) {
            return "a group id is required";
        }
        if (data.partition() < 0 || data.startOffset() < 0) {
            return "partition " + data.partition() + " with start offset " + data.startOffset() + " is not valid";
        }
        long previousLast = data.startOffset() - 1;
        for (WriteShareGroupStateRequest.StateBatch b : data.stateBatches()) {
            if (b.firstOffset() <= previousLast || b.lastOffset() < b.firstOffset()) {
                return "state batch [" + b.firstOffset() + ", " + b.lastOffset()
                        + "] is not above the start offset and the batch before it";
            }
            if (b.deliveryCount() < 0 || !RecordState.isCode(b.deliveryState())) {
                return "state batch [" + b.firstOffset() + ", " + b.lastOffset() + "] has delivery state "
                        + b.deliveryState() + " and count " + b.deliveryCount();
            }
            previousLast = b.lastOffset();
        }
        return null;
    }

    /** The state one partition of a write request carries (see {@link #refusal}). */
    public static SharePartition.Snapshot snapshot(WriteShareGroupStateRequest.PartitionData data) {
        List<SharePartition.StateRange> ranges = new ArrayList<>(data.stateBatches().size());
        for (WriteShareGroupStateRequest.StateBatch b : data.stateBatches()) {
            ranges.add(new SharePartition.StateRange(b.firstOffset(), b.lastOffset(),
                    RecordState.ofCode(b.deliveryState()), b.deliveryCount()));
        }
        return new SharePartition.Snapshot(data.startOffset(), ranges);
    }

    /** The error of a write answer of one share partition. */
    public static Errors writeResult(WriteShareGroupStateResponse response) {
        if (response.results().isEmpty() || response.results().get(0).partitions().isEmpty()) {
            return Errors.UNKNOWN_SERVER_ERROR;
        }
        return Errors.forCode(response.results().get(0).partitions().get(0).errorCode());
    }
}
