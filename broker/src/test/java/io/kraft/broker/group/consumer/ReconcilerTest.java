package io.kraft.broker.group.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.group.consumer.ConsumerGroupMember.CurrentAssignment;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ReconcilerTest {
    private static final UUID T = new UUID(0, 1);

    private static CurrentAssignment stable(int epoch, Assignment assigned) {
        return new CurrentAssignment(epoch, epoch - 1, MemberState.STABLE, assigned, Assignment.EMPTY);
    }

    @Test
    void aNewMemberTakesFreePartitionsAtTheTargetEpoch() {
        CurrentAssignment next = Reconciler.next(stable(0, Assignment.EMPTY), Assignment.of(T, 0, 1), 3, null,
                (t, p) -> false);
        assertEquals(new CurrentAssignment(3, 0, MemberState.STABLE, Assignment.of(T, 0, 1), Assignment.EMPTY), next);
    }

    @Test
    void revokesFirstKeepingItsEpoch() {
        CurrentAssignment next = Reconciler.next(stable(2, Assignment.of(T, 0, 1, 2)), Assignment.of(T, 0), 3, null,
                (t, p) -> false);
        assertEquals(new CurrentAssignment(2, 1, MemberState.UNREVOKED_PARTITIONS, Assignment.of(T, 0),
                Assignment.of(T, 1, 2)), next);
        // no report of its partitions: still revoking
        assertEquals(next, Reconciler.next(next, Assignment.of(T, 0), 3, null, (t, p) -> false));
        // reports it still owns one of them: still revoking
        assertEquals(next, Reconciler.next(next, Assignment.of(T, 0), 3, Assignment.of(T, 0, 2), (t, p) -> false));
        CurrentAssignment done = Reconciler.next(next, Assignment.of(T, 0), 3, Assignment.of(T, 0), (t, p) -> false);
        assertEquals(new CurrentAssignment(3, 2, MemberState.STABLE, Assignment.of(T, 0), Assignment.EMPTY), done);
    }

    @Test
    void waitsForPartitionsOthersStillOwn() {
        CurrentAssignment next = Reconciler.next(stable(2, Assignment.of(T, 0)), Assignment.of(T, 0, 1), 3, null,
                (t, p) -> p == 1);
        assertEquals(new CurrentAssignment(3, 2, MemberState.UNRELEASED_PARTITIONS, Assignment.of(T, 0),
                Assignment.EMPTY), next);
        CurrentAssignment released = Reconciler.next(next, Assignment.of(T, 0, 1), 3, null, (t, p) -> false);
        assertEquals(new CurrentAssignment(3, 2, MemberState.STABLE, Assignment.of(T, 0, 1), Assignment.EMPTY),
                released);
    }
}
