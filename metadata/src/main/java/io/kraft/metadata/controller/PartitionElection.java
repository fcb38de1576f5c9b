package io.kraft.metadata.controller;

import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.PartitionChangeRecord;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.IntPredicate;

/**
 * The leader and ISR rule applied whenever brokers come or go: ineligible brokers leave the ISR; the
 * leader stays if eligible, else the first eligible ISR member in replica order leads. With eligible leader replicas
 * on (KIP-966, {@link ElrRule}) the ISR may become empty, its leavers join the ELR, and with no eligible ISR member the
 * first eligible ELR member leads with an ISR of itself. Without them, with no eligible ISR member the ISR is kept as
 * it is (so a returning member can lead without losing data) and the partition is leaderless. With ELR on and
 * neither an ISR nor an ELR left, a last-known ELR member leads again, as the last ISR member would without ELR.
 * Only when none of these yields a leader does unclean election, if enabled, elect the first eligible replica (a
 * last-known ELR member first) with an ISR of just itself.
 */
final class PartitionElection {
    private PartitionElection() {
    }

    /** The change that applies the rule (unbuilt, so a caller can add to it), or empty if nothing changes. */
    static Optional<PartitionChangeRecord.Builder> changeBuilder(UUID topicId, int partitionId,
                                                                 PartitionRegistration partition, IntPredicate eligible,
                                                                 boolean unclean, ElrRule elr) {
        List<Integer> isr = partition.isr().stream().filter(eligible::test).toList();
        int leader;
        boolean uncleanElection = false;
        if (partition.hasLeader() && eligible.test(partition.leader())) {
            leader = partition.leader();
        } else {
            leader = partition.replicas().stream().filter(isr::contains).findFirst().orElse(PartitionRegistration.NO_LEADER);
            if (leader == PartitionRegistration.NO_LEADER) {
                leader = elr.electFromElr(partition, eligible);
                if (leader == PartitionRegistration.NO_LEADER) {
                    leader = elr.electLastKnown(partition, eligible);
                    uncleanElection = leader != PartitionRegistration.NO_LEADER;
                }
                if (leader == PartitionRegistration.NO_LEADER && unclean) {
                    leader = uncleanCandidate(partition, eligible);
                    uncleanElection = leader != PartitionRegistration.NO_LEADER;
                }
                if (leader != PartitionRegistration.NO_LEADER) {
                    isr = List.of(leader);
                } else if (!elr.enabled()) {
                    isr = partition.isr();
                }
            }
        }
        PartitionChangeRecord.Builder change = PartitionChangeRecord.newBuilder()
                .setTopicId(Uuids.toProto(topicId))
                .setPartitionId(partitionId);
        boolean leaderChanged = leader != partition.leader();
        boolean isrChanged = !isr.equals(partition.isr());
        if (leaderChanged) {
            change.setLeader(leader);
        }
        if (isrChanged) {
            change.setIsr(BrokerIdList.newBuilder().addAllBrokerIds(isr));
        }
        boolean elrChanged = elr.complete(partition, isr, partition.replicas(), uncleanElection, change);
        return leaderChanged || isrChanged || elrChanged ? Optional.of(change) : Optional.empty();
    }

    /** The first eligible replica, preferring last-known ELR members (they had the records most recently). */
    private static int uncleanCandidate(PartitionRegistration partition, IntPredicate eligible) {
        return partition.replicas().stream().filter(b -> partition.lastKnownElr().contains(b) && eligible.test(b))
                .findFirst().orElseGet(() -> partition.replicas().stream().filter(eligible::test).findFirst()
                        .orElse(PartitionRegistration.NO_LEADER));
    }
}
