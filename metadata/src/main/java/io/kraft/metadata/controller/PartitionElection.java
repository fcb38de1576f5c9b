package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.IntPredicate;

/**
 * The leader and ISR rule applied whenever brokers come or go: ineligible brokers leave the ISR; the
 * leader stays if eligible, else the first eligible ISR member in replica order leads; with no eligible
 * ISR member the ISR is kept as it is (so a returning member can lead without losing data) and the
 * partition is leaderless, unless unclean election is enabled, which elects the first eligible replica
 * with an ISR of just itself.
 */
final class PartitionElection {
    private PartitionElection() {
    }

    /** The change that applies the rule, or empty if the partition already satisfies it. */
    static Optional<MetadataRecord> change(UUID topicId, int partitionId, PartitionRegistration partition,
                                           IntPredicate eligible, boolean unclean) {
        return changeBuilder(topicId, partitionId, partition, eligible, unclean)
                .map(change -> MetadataRecords.of(change.build()));
    }

    /** As {@link #change}, unbuilt, so a caller can add to the same record. */
    static Optional<PartitionChangeRecord.Builder> changeBuilder(UUID topicId, int partitionId,
                                                                 PartitionRegistration partition, IntPredicate eligible,
                                                                 boolean unclean) {
        List<Integer> isr = partition.isr().stream().filter(eligible::test).toList();
        int leader;
        if (partition.hasLeader() && eligible.test(partition.leader())) {
            leader = partition.leader();
        } else {
            leader = partition.replicas().stream().filter(isr::contains).findFirst().orElse(PartitionRegistration.NO_LEADER);
            if (leader == PartitionRegistration.NO_LEADER) {
                if (unclean) {
                    leader = partition.replicas().stream().filter(eligible::test).findFirst()
                            .orElse(PartitionRegistration.NO_LEADER);
                }
                isr = leader == PartitionRegistration.NO_LEADER ? partition.isr() : List.of(leader);
            }
        }
        boolean leaderChanged = leader != partition.leader();
        boolean isrChanged = !isr.equals(partition.isr());
        if (!leaderChanged && !isrChanged) {
            return Optional.empty();
        }
        PartitionChangeRecord.Builder change = PartitionChangeRecord.newBuilder()
                .setTopicId(Uuids.toProto(topicId))
                .setPartitionId(partitionId);
        if (leaderChanged) {
            change.setLeader(leader);
        }
        if (isrChanged) {
            change.setIsr(BrokerIdList.newBuilder().addAllBrokerIds(isr));
        }
        return Optional.of(change);
    }
}
