package io.kraft.broker.group;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * The epochs members had when their consumer group went back to the classic protocol (KIP-848's downgrade), kept
 * until the classic group's next generation. The classic group has one generation while the members' epochs may
 * differ (one was still reconciling), so a member behind it would otherwise get ILLEGAL_GENERATION: its client
 * then treats its partitions as lost and drops what it processed without committing it. A member at its epoch of
 * the conversion may heartbeat (and is told to rejoin) and commit offsets of partitions it owned then. Ours, not
 * Kafka's: Kafka gives the classic group the consumer group's epoch and refuses every other generation.
 * Not stored: a new coordinator of the partition knows only the generation of the group's record.
 */
final class DowngradedEpochs {
    /** A member's epoch and the partitions it owned (assigned or being revoked) at the conversion. */
    record Member(int epoch, Set<OffsetKey> owned) {
        Member {
            owned = Set.copyOf(owned);
        }
    }

    private final int generation;
    private final Map<String, Member> members;

    /** @param generation the classic group's generation written at the conversion */
    DowngradedEpochs(int generation, Map<String, Member> members) {
        this.generation = generation;
        this.members = Map.copyOf(members);
    }

    /** Whether {@code memberId} at {@code epoch} was in the group at the conversion, which is still the generation. */
    boolean knows(ClassicGroup group, String memberId, int epoch) {
        Member member = memberId == null || group.generationId() != generation ? null : members.get(memberId);
        return member != null && member.epoch() == epoch && group.hasMember(memberId);
    }

    /** Whether the member at its conversion epoch may commit {@code partitions}: only those it owned then. */
    boolean acceptsCommit(ClassicGroup group, String memberId, int epoch, Collection<OffsetKey> partitions) {
        return knows(group, memberId, epoch) && members.get(memberId).owned().containsAll(partitions);
    }
}
