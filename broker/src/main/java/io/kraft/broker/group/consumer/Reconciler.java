package io.kraft.broker.group.consumer;

import io.kraft.broker.group.consumer.ConsumerGroupMember.CurrentAssignment;
import java.util.UUID;
import java.util.function.BiPredicate;

/**
 * The member state machine of KIP-848's incremental reconciliation, as a pure function: a member first revokes what
 * its target no longer holds (keeping its epoch), then takes the new epoch with those target partitions no other
 * member still owns, and waits (unreleased partitions) for the rest. No partition is ever owned by two members.
 */
public final class Reconciler {
    private Reconciler() {
    }

    /**
     * The member's next state.
     *
     * @param reportedOwned the partitions the member said it owns in this heartbeat, null when it did not say
     * @param ownedByOther  whether a partition is assigned to, or being revoked by, another member
     */
    public static CurrentAssignment next(CurrentAssignment current, Assignment target, int targetEpoch,
                                         Assignment reportedOwned, BiPredicate<UUID, Integer> ownedByOther) {
        if (current.state() == MemberState.UNREVOKED_PARTITIONS) {
            boolean revoked = reportedOwned != null
                    && reportedOwned.intersect(current.pendingRevocation()).isEmpty();
            if (!revoked) {
                return current;
            }
            current = new CurrentAssignment(current.memberEpoch(), current.previousMemberEpoch(), MemberState.STABLE,
                    current.assigned(), Assignment.EMPTY);
        }
        Assignment toRevoke = current.assigned().minus(target);
        if (!toRevoke.isEmpty()) {
            return new CurrentAssignment(current.memberEpoch(), current.previousMemberEpoch(),
                    MemberState.UNREVOKED_PARTITIONS, current.assigned().intersect(target), toRevoke);
        }
        Assignment free = target.minus(current.assigned()).filter((topic, id) -> !ownedByOther.test(topic, id));
        Assignment assigned = current.assigned().union(free);
        MemberState state = assigned.size() == target.size() ? MemberState.STABLE : MemberState.UNRELEASED_PARTITIONS;
        int previous = current.memberEpoch() == targetEpoch ? current.previousMemberEpoch() : current.memberEpoch();
        return new CurrentAssignment(targetEpoch, previous, state, assigned, Assignment.EMPTY);
    }
}
