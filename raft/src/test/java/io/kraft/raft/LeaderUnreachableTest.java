package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A follower whose leader refuses connections gives up on it after a short grace, not the fetch timeout; an observer
 * looking for the leader moves on from a voter that refuses connections.
 */
class LeaderUnreachableTest {
    private static final int ELECTION_TIMEOUT_TICKS = 10;
    private static final int FETCH_TIMEOUT_TICKS = 20;
    private static final int REQUEST_TIMEOUT_TICKS = 200;

    private static RaftNode followerOfNodeOne() {
        RaftNode node = new RaftNode(new RaftConfig(2, Set.of(1, 2, 3), ELECTION_TIMEOUT_TICKS, FETCH_TIMEOUT_TICKS,
                10, 10, 4, 100), new InMemoryRaftLog(), QuorumState.INITIAL, new Random(11));
        node.handle(new BeginQuorumEpoch(1, 2, 1));
        node.ready();
        assertEquals(OptionalInt.of(1), node.leaderId());
        return node;
    }

    private static int ticksUntilProspective(RaftNode node) {
        for (int tick = 1; tick <= 10 * FETCH_TIMEOUT_TICKS; tick++) {
            node.tick();
            node.ready();
            if (node.role() == Role.PROSPECTIVE) {
                return tick;
            }
        }
        throw new AssertionError("the follower never stood for election");
    }

    @Test
    void unreachableLeaderIsGivenUpAfterAShortGrace() {
        RaftNode node = followerOfNodeOne();
        node.peerUnreachable(1);
        int ticks = ticksUntilProspective(node);
        assertTrue(ticks <= ELECTION_TIMEOUT_TICKS / 5 + ELECTION_TIMEOUT_TICKS / 2,
                "pre-vote after " + ticks + " ticks, within the grace");
    }

    @Test
    void theVotersAfterTheLeaderStandOneAfterAnotherTheFirstAlmostAtOnce() {
        int electionTimeoutTicks = 100;
        int[] ticks = new int[4];
        for (int nodeId : new int[] {2, 3}) {
            RaftNode node = new RaftNode(new RaftConfig(nodeId, Set.of(1, 2, 3), electionTimeoutTicks, 2_000, 10, 10,
                    4, 100), new InMemoryRaftLog(), QuorumState.INITIAL, new Random(nodeId));
            node.handle(new BeginQuorumEpoch(1, nodeId, 1));
            node.ready();
            node.peerUnreachable(1);
            ticks[nodeId] = ticksUntilProspective(node);
        }
        assertTrue(ticks[2] <= electionTimeoutTicks / 10, "the first after the leader stood after " + ticks[2]);
        assertTrue(ticks[3] >= electionTimeoutTicks / 5, "the second stood after " + ticks[3] + ", with the first");
    }

    @Test
    void successorsAreCountedRoundTheIdsFromTheLeader() {
        assertEquals(0, SuccessorOrder.rank(Set.of(1, 2, 3), 2, 3));
        assertEquals(1, SuccessorOrder.rank(Set.of(1, 2, 3), 2, 1));
        assertEquals(0, SuccessorOrder.rank(Set.of(1, 2, 3), 3, 1));
        assertEquals(2, SuccessorOrder.rank(Set.of(1, 4, 7, 9), 4, 1));
    }

    @Test
    void anObserverLookingForTheLeaderAsksAnotherVoterSoonWhenTheOneItAskedIsDown() {
        RaftNode observer = observer();
        int probed = nextProbe(observer).target();
        observer.peerUnreachable(probed);
        Probe next = nextProbe(observer);
        assertTrue(next.ticks() < REQUEST_TIMEOUT_TICKS, "the next probe waited for the request timeout");
        assertTrue(next.target() != probed, "voter " + probed + " was refused, yet probed again");
    }

    @Test
    void anObserverAsksAgainSoonWhenTheVoterItAskedKnowsNoLeaderYet() {
        RaftNode observer = observer();
        int probed = nextProbe(observer).target();
        // A voter in the middle of an election: not the leader, and it knows none.
        observer.handle(new RaftMessage.FetchResponse(probed, 9, 0, RaftMessage.NO_LEADER,
                RaftMessage.FetchError.NOT_LEADER, 0, 0, 0, -1, -1, List.of()));
        assertTrue(nextProbe(observer).ticks() < REQUEST_TIMEOUT_TICKS,
                "the next probe waited for the request timeout");
    }

    /** Observer 9 of voters 1-3, knowing no leader yet, with a long request timeout. */
    private static RaftNode observer() {
        return new RaftNode(new RaftConfig(9, Set.of(1, 2, 3), ELECTION_TIMEOUT_TICKS, FETCH_TIMEOUT_TICKS, 10,
                REQUEST_TIMEOUT_TICKS, 4, 100), new InMemoryRaftLog(), QuorumState.INITIAL, new Random(5));
    }

    /** A fetch the node sent: to whom, and after how many ticks (target -1 if none within the request timeout). */
    private record Probe(int ticks, int target) {
    }

    private static Probe nextProbe(RaftNode node) {
        for (int tick = 1; tick <= REQUEST_TIMEOUT_TICKS; tick++) {
            node.tick();
            int target = node.ready().messages().stream().filter(m -> m instanceof RaftMessage.FetchRequest)
                    .mapToInt(m -> ((RaftMessage.FetchRequest) m).destination()).findFirst().orElse(-1);
            if (target >= 0) {
                return new Probe(tick, target);
            }
        }
        return new Probe(REQUEST_TIMEOUT_TICKS, -1);
    }

    @Test
    void aCandidateWhoseVoteIsSplitWhileTheThirdVoterIsDownBacksOffInsteadOfWaitingOutItsTimeout() {
        int electionTimeoutTicks = 100;
        int backoffMaxTicks = 10;
        RaftNode node = new RaftNode(new RaftConfig(2, Set.of(1, 2, 3), electionTimeoutTicks, 200, backoffMaxTicks,
                50, 4, 100), new InMemoryRaftLog(), QuorumState.INITIAL, new Random(3));
        int ticks = 0;
        while (node.role() != Role.PROSPECTIVE && ticks++ < 10 * electionTimeoutTicks) {
            node.tick();
            node.ready();
        }
        node.handle(new RaftMessage.VoteResponse(3, 2, 0, RaftMessage.NO_LEADER, true, true, 1));
        node.ready();
        assertEquals(Role.CANDIDATE, node.role());
        // Voter 3 stood too and voted for itself; voter 1 is down.
        node.handle(new RaftMessage.VoteResponse(3, 2, 1, RaftMessage.NO_LEADER, false, false, 1));
        node.peerUnreachable(1);
        node.ready();
        int waited = 0;
        while (node.role() == Role.CANDIDATE && waited < 10 * electionTimeoutTicks) {
            waited++;
            node.tick();
            node.ready();
        }
        assertTrue(waited <= backoffMaxTicks + 1, "the lost round ended after " + waited + " ticks, not within the "
                + "election backoff (" + backoffMaxTicks + ")");
    }

    @Test
    void anUnreachableNonLeaderChangesNothing() {
        RaftNode node = followerOfNodeOne();
        node.peerUnreachable(3);
        assertTrue(ticksUntilProspective(node) >= FETCH_TIMEOUT_TICKS,
                "only the fetch timeout ends a leader nobody reported unreachable");
    }
}
