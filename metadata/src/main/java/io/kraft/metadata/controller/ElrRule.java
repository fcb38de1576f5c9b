package io.kraft.metadata.controller;

import io.kraft.metadata.image.FeaturesImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.PartitionChangeRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Eligible leader replicas for one partition change (KIP-966). Leaders do not advance the high watermark while the
 * ISR is smaller than min.insync.replicas, so a replica that leaves the ISR then still holds every record below it
 * and may lead once the ISR is empty: it joins the ELR. The ELR is cleared as soon as the ISR reaches
 * min.insync.replicas again; a member that restarted after an unclean shutdown may have lost records and moves to the
 * last-known ELR, which is kept for an operator's recovery until the ISR is healthy. Off ({@link #OFF}) the
 * partition keeps no ELR, as before KIP-966.
 *
 * @param enabled  whether {@code eligible.leader.replicas.version} is at least 1
 * @param minIsr   the topic's effective min.insync.replicas
 * @param lostData brokers known to have restarted after an unclean shutdown: never (again) in the ELR
 */
record ElrRule(boolean enabled, int minIsr, IntPredicate lostData) {
    /** The feature that turns ELR on, with Kafka's name. */
    static final String FEATURE = FeaturesImage.ELIGIBLE_LEADER_REPLICAS;

    /** No ELR: every partition's ELR and last-known ELR are left empty. */
    static final ElrRule OFF = new ElrRule(false, 1, b -> false);

    /** The same rule, with {@code brokers} also known to have lost data. */
    ElrRule withLostData(IntPredicate brokers) {
        return new ElrRule(enabled, minIsr, b -> lostData.test(b) || brokers.test(b));
    }

    /**
     * Sets {@code change}'s ELR and last-known ELR for the partition going from {@code before} to an ISR of
     * {@code targetIsr} over {@code targetReplicas}, where they differ from {@code before}'s. After an unclean
     * election both are cleared: the new leader's log is the truth from then on.
     *
     * @return whether it set either
     */
    boolean complete(PartitionRegistration before, List<Integer> targetIsr, List<Integer> targetReplicas,
                     boolean uncleanElection, PartitionChangeRecord.Builder change) {
        List<Integer> elr = List.of();
        List<Integer> lastKnown = List.of();
        if (enabled && !uncleanElection && targetIsr.size() < minIsr) {
            elr = new ArrayList<>();
            lastKnown = new ArrayList<>();
            for (int replica : targetReplicas) {
                if (targetIsr.contains(replica)) {
                    continue;
                }
                boolean wasInSync = before.isr().contains(replica) || before.elr().contains(replica);
                if (wasInSync && !lostData.test(replica)) {
                    elr.add(replica);
                } else if (before.lastKnownElr().contains(replica) || wasInSync) {
                    lastKnown.add(replica);
                }
            }
        }
        boolean set = false;
        if (!elr.equals(before.elr())) {
            change.setEligibleLeaderReplicas(BrokerIdList.newBuilder().addAllBrokerIds(elr));
            set = true;
        }
        if (!lastKnown.equals(before.lastKnownElr())) {
            change.setLastKnownElr(BrokerIdList.newBuilder().addAllBrokerIds(lastKnown));
            set = true;
        }
        return set;
    }

    /**
     * With neither an ISR nor an ELR left, the first last-known ELR member in replica order that may lead, or
     * {@link PartitionRegistration#NO_LEADER}: no replica is known to hold every record, and the last that did leads
     * again as it would without ELR (KIP-966's last known leader), rather than leaving the partition offline.
     */
    int electLastKnown(PartitionRegistration partition, IntPredicate eligible) {
        if (!enabled || !partition.isr().isEmpty() || !partition.elr().isEmpty()) {
            return PartitionRegistration.NO_LEADER;
        }
        return partition.replicas().stream().filter(b -> partition.lastKnownElr().contains(b) && eligible.test(b))
                .findFirst().orElse(PartitionRegistration.NO_LEADER);
    }

    /** The first ELR member, in replica order, that may lead, or {@link PartitionRegistration#NO_LEADER}. */
    int electFromElr(PartitionRegistration partition, IntPredicate eligible) {
        if (!enabled) {
            return PartitionRegistration.NO_LEADER;
        }
        return partition.replicas().stream()
                .filter(b -> partition.elr().contains(b) && eligible.test(b) && !lostData.test(b))
                .findFirst().orElse(PartitionRegistration.NO_LEADER);
    }
}
