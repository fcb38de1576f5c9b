package io.kraft.raft;

import static io.kraft.raft.HandDrivenQuorum.voter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** KIP-853's voter changes in the core: growing, shrinking, the leader's removal, refusals and rollbacks. */
class VoterChangesTest {

    private static VoterSet setOf(int... ids) {
        return VoterSet.of(java.util.Arrays.stream(ids).mapToObj(HandDrivenQuorum::voter).toList());
    }

    /** Node 1 alone in the bootstrap set leads; nodes 2 and 3 follow it as observers and have caught up. */
    private static HandDrivenQuorum standaloneWithObservers() {
        HandDrivenQuorum quorum = new HandDrivenQuorum(Set.of(1, 2, 3), setOf(1));
        quorum.deliverAll();
        quorum.tickUntil(q -> q.node(1).role() == Role.LEADER && q.node(1).highWatermark() > 0, 1, 2, 3);
        quorum.tickUntil(q -> q.node(2).highWatermark() == q.node(1).highWatermark()
                && q.node(3).highWatermark() == q.node(1).highWatermark(), 1, 2, 3);
        assertEquals(Role.OBSERVER, quorum.node(2).role());
        return quorum;
    }

    private static Errors errorOf(CompletableFuture<Long> future) {
        assertTrue(future.isCompletedExceptionally(), "refused at once");
        try {
            future.join();
            throw new AssertionError("not refused");
        } catch (CompletionException e) {
            return assertInstanceOf(VoterChangeException.class, e.getCause()).error();
        }
    }

    private static void commit(HandDrivenQuorum quorum, CompletableFuture<Long> change) {
        quorum.tickUntil(q -> change.isDone(), 1, 2, 3);
        assertFalse(change.isCompletedExceptionally(), change::toString);
    }

    @Test
    void aStandaloneControllerGrowsToThreeVoters() {
        HandDrivenQuorum quorum = standaloneWithObservers();
        commit(quorum, quorum.node(1).addVoter(voter(2)));
        assertEquals(Role.FOLLOWER, quorum.node(2).role(), "an added observer follows");
        commit(quorum, quorum.node(1).addVoter(voter(3)));
        quorum.tickUntil(q -> q.node(3).voters().size() == 3 && q.node(3).role() == Role.FOLLOWER, 1, 2, 3);
        for (int id = 1; id <= 3; id++) {
            assertEquals(setOf(1, 2, 3), quorum.node(id).voters());
        }
        // The grown quorum commits with a majority of three: node 1 alone no longer does.
        quorum.disconnect(2);
        quorum.disconnect(3);
        CompletableFuture<Long> alone = quorum.node(1).append(List.of(new byte[] {1}));
        for (int i = 0; i < 5; i++) {
            quorum.node(1).tick();
            quorum.deliverAll();
        }
        assertFalse(alone.isDone(), "a lone voter of three cannot commit");
    }

    @Test
    void changesAreRefusedWithKafkasErrors() {
        HandDrivenQuorum quorum = standaloneWithObservers();
        RaftNode leader = quorum.node(1);
        assertEquals(Errors.DUPLICATE_VOTER, errorOf(leader.addVoter(voter(1))));
        assertEquals(Errors.REQUEST_TIMED_OUT, errorOf(leader.addVoter(voter(9))), "never fetched: not caught up");
        assertEquals(Errors.VOTER_NOT_FOUND, errorOf(leader.removeVoter(1, new UUID(1, 1))), "another directory");
        assertEquals(Errors.INVALID_REQUEST, errorOf(leader.removeVoter(1, HandDrivenQuorum.dir(1))));

        quorum.disconnect(2); // the new set {1, 2} cannot commit without node 2
        CompletableFuture<Long> pending = leader.addVoter(voter(2));
        assertFalse(pending.isDone());
        assertEquals(setOf(1, 2), leader.voters(), "in force as soon as it is in the log");
        assertEquals(Errors.REQUEST_TIMED_OUT, errorOf(leader.addVoter(voter(3))), "one change at a time");
        assertTrue(assertInstanceOf(NotLeaderException.class, failure(quorum.node(3).addVoter(voter(3)))) != null);
    }

    @Test
    void aVoterStatesItsNewEndpoint() {
        HandDrivenQuorum quorum = standaloneWithObservers();
        commit(quorum, quorum.node(1).addVoter(voter(2)));
        Voter moved = new Voter(2, HandDrivenQuorum.dir(2), "localhost:9999");
        commit(quorum, quorum.node(1).updateVoter(moved));
        quorum.tickUntil(q -> q.node(2).voters().voter(2).orElseThrow().equals(moved), 1, 2, 3);
        assertEquals(Set.of(1, 2), quorum.node(1).voters().ids());
        CompletableFuture<Long> unchanged = quorum.node(1).updateVoter(moved);
        assertTrue(unchanged.isDone() && !unchanged.isCompletedExceptionally(), "nothing to change: at once");
        assertEquals(Errors.VOTER_NOT_FOUND, errorOf(quorum.node(1).updateVoter(
                new Voter(2, new UUID(7, 7), "localhost:1"))), "another directory is another voter");
        assertEquals(Errors.VOTER_NOT_FOUND, errorOf(quorum.node(1).updateVoter(voter(3))), "an observer");
    }

    @Test
    void aStaticQuorumRefusesChanges() {
        HandDrivenQuorum quorum = HandDrivenQuorum.withNodeOneLeading(10);
        quorum.tickUntil(q -> q.node(1).highWatermark() > 0, 1, 2, 3);
        assertFalse(quorum.node(1).dynamicVoters());
        assertEquals(Errors.UNSUPPORTED_VERSION, errorOf(quorum.node(1).removeVoter(3, Voter.UNKNOWN_DIRECTORY)));
    }

    @Test
    void aRemovedLeaderResignsOnceItsRemovalCommits() {
        HandDrivenQuorum quorum = new HandDrivenQuorum(Set.of(1, 2, 3), setOf(1, 2, 3));
        quorum.deliverAll();
        quorum.tickUntil(q -> q.node(1).role() == Role.LEADER && q.node(1).highWatermark() > 0, 1);
        CompletableFuture<Long> removal = quorum.node(1).removeVoter(1, HandDrivenQuorum.dir(1));
        quorum.tickUntil(q -> removal.isDone() && q.node(1).role() == Role.OBSERVER, 1, 2, 3);
        assertFalse(removal.isCompletedExceptionally());
        quorum.tickUntil(q -> q.node(2).role() == Role.LEADER || q.node(3).role() == Role.LEADER, 1, 2, 3);
        int newLeader = quorum.node(2).role() == Role.LEADER ? 2 : 3;
        CompletableFuture<Long> append = quorum.node(newLeader).append(List.of(new byte[] {7}));
        quorum.tickUntil(q -> append.isDone() && q.node(1).highWatermark() == q.node(newLeader).highWatermark(),
                1, 2, 3);
        assertEquals(setOf(2, 3), quorum.node(1).voters());
        assertEquals(Role.OBSERVER, quorum.node(1).role(), "the removed node follows the log as an observer");
    }

    @Test
    void truncationRollsAnUncommittedChangeBack() {
        HandDrivenQuorum quorum = new HandDrivenQuorum(Set.of(1, 2, 3), setOf(1, 2, 3));
        quorum.deliverAll();
        quorum.tickUntil(q -> q.node(1).role() == Role.LEADER && q.node(1).highWatermark() > 0, 1);
        quorum.tickUntil(q -> q.node(2).highWatermark() > 0 && q.node(3).highWatermark() > 0, 1, 2, 3);
        quorum.disconnect(1);
        CompletableFuture<Long> removal = quorum.node(1).removeVoter(3, HandDrivenQuorum.dir(3));
        assertEquals(setOf(1, 2), quorum.node(1).voters());
        quorum.tickUntil(q -> q.node(2).role() == Role.LEADER || q.node(3).role() == Role.LEADER, 1, 2, 3);
        quorum.reconnect(1);
        quorum.tickUntil(q -> removal.isDone() && q.node(1).role() == Role.FOLLOWER
                && q.node(1).voters().equals(setOf(1, 2, 3)), 1, 2, 3);
        assertInstanceOf(NotLeaderException.class, failure(removal));
    }

    @Test
    void aWipedDiskIsADifferentVoter() {
        VoterSet voters = setOf(1, 2, 3);
        assertTrue(voters.contains(3, HandDrivenQuorum.dir(3)));
        assertFalse(voters.contains(3, new UUID(9, 9)), "a reformatted directory is not the voter");
        assertTrue(VoterSet.ofIds(Set.of(1, 2, 3)).contains(3, new UUID(9, 9)), "a static voter has no directory");
    }

    @Test
    void votersRecordsRoundTripAndRefuseGarbage() {
        VoterSet voters = setOf(1, 2, 3);
        assertEquals(voters, VoterSet.decode(voters.encode()));
        assertEquals(VoterSet.empty(), VoterSet.decode(VoterSet.empty().encode()));
        byte[] bytes = voters.encode();
        bytes[0] = 9;
        assertThrows(bytes);
        assertThrows(java.util.Arrays.copyOf(voters.encode(), 10));
        byte[] huge = voters.encode();
        huge[1] = 0x7f;
        assertThrows(huge);
    }

    @Test
    void setsOneVoterApartHaveIntersectingMajorities() {
        for (int n = 1; n <= 6; n++) {
            int[] ids = java.util.stream.IntStream.rangeClosed(1, n).toArray();
            VoterSet set = setOf(ids);
            assertTrue(set.majoritiesIntersect(set.with(voter(n + 1))), "add to " + n);
            assertTrue(set.majoritiesIntersect(set.without(1)) || n == 1, "remove from " + n);
        }
        assertFalse(setOf(1, 2).majoritiesIntersect(setOf(3, 4)));
        assertFalse(setOf(1, 2, 3).majoritiesIntersect(setOf(1, 4, 5)), "{2,3} and {4,5}");
        assertFalse(setOf(1, 2).with(voter(3)).majoritiesIntersect(setOf(1, 2).with(voter(4))), "two adds apart");
    }

    private static void assertThrows(byte[] payload) {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> VoterSet.decode(payload));
    }

    private static Throwable failure(CompletableFuture<Long> future) {
        try {
            future.join();
            throw new AssertionError("did not fail");
        } catch (CompletionException e) {
            return e.getCause();
        }
    }
}
