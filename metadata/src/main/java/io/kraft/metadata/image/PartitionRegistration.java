package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import java.util.List;
import java.util.UUID;

/** One partition's replicas, in-sync replicas, leader and epochs. */
public record PartitionRegistration(List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                                    int partitionEpoch) {
    /** The leader id of a partition without a leader. */
    public static final int NO_LEADER = -1;

    public PartitionRegistration {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
    }

    public static PartitionRegistration fromRecord(PartitionRecord record) {
        return new PartitionRegistration(record.getReplicasList(), record.getIsrList(), record.getLeader(),
                record.getLeaderEpoch(), record.getPartitionEpoch());
    }

    /**
     * This partition after a change: the partition epoch always grows by one, the leader epoch grows by one
     * when the change names a leader (even the same one, which is how a leader is made to restart its term).
     */
    public PartitionRegistration merge(PartitionChangeRecord change) {
        return new PartitionRegistration(
                change.hasReplicas() ? change.getReplicas().getBrokerIdsList() : replicas,
                change.hasIsr() ? change.getIsr().getBrokerIdsList() : isr,
                change.hasLeader() ? change.getLeader() : leader,
                change.hasLeader() ? leaderEpoch + 1 : leaderEpoch,
                partitionEpoch + 1);
    }

    public boolean hasLeader() {
        return leader != NO_LEADER;
    }

    /** The record that creates exactly this state (used on creation and in snapshots). */
    public MetadataRecord toRecord(UUID topicId, int partitionId) {
        return MetadataRecords.of(PartitionRecord.newBuilder()
                .setTopicId(Uuids.toProto(topicId))
                .setPartitionId(partitionId)
                .addAllReplicas(replicas)
                .addAllIsr(isr)
                .setLeader(leader)
                .setLeaderEpoch(leaderEpoch)
                .setPartitionEpoch(partitionEpoch)
                .build());
    }
}
