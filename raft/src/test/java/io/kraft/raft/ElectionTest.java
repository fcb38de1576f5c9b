package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import io.kraft.raft.RaftMessage.BeginQuorumEpochResponse;
import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import io.kraft.raft.RaftMessage.VoteRequest;
import io.kraft.raft.RaftMessage.VoteResponse;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who leads: pre-votes and votes, leader announcements, and which messages move a node into a newer epoch. */
class ElectionTest {

    /** Voter 2 following leader 1 of epoch 1, having heard from it directly. */
    private static HandDrivenNode followerOfNodeOne() {
        HandDrivenNode follower = new HandDrivenNode(2, QuorumState.INITIAL);
        follower.ready();
        follower.handle(new BeginQuorumEpoch(1, 2, 1));
        follower.ready();
        follower.handle(new FetchResponse(1, 2, 1, 1, FetchError.NONE, 0, 0, 0, -1, -1, List.of()));
        follower.ready();
        return follower;
    }

    @Test
    void aLoneVoterLeadsOnItsFirstTickWithoutWaitingOutAnElectionTimeout() {
        RaftNode lone = new RaftNode(new RaftConfig(1, Set.of(1), 100, 200, 10, 10, 4, 100, 8),
                new InMemoryRaftLog(), new InMemorySnapshotStore(), QuorumState.INITIAL, new Random(1));
        assertEquals(Role.FOLLOWER, lone.role());
        lone.tick();
        assertEquals(Role.LEADER, lone.role(), "an election timeout is 100 ticks; one tick was enough");
        assertEquals(OptionalInt.of(1), lone.leaderId());
        assertEquals(1, lone.epoch());
    }

    @Test
    void aVoterThatHearsFromItsLeaderRefusesPreVotes() {
        HandDrivenNode follower = followerOfNodeOne();
        follower.handle(new VoteRequest(3, 2, 2, 0, 0, true));
        VoteResponse answer = follower.sent(VoteResponse.class).get(0);
        assertFalse(answer.granted(), "the quorum is healthy: no election (KIP-996)");
        assertEquals(1, answer.leaderId(), "and it says who leads");
    }

    @Test
    void aRefusalNamingALeaderOfItsEpochEndsThePreVoteAndFollowsThatLeader() {
        HandDrivenNode voter = new HandDrivenNode(2, QuorumState.INITIAL);
        voter.ready();
        for (int tick = 0; tick < 100 && voter.node.role() != Role.PROSPECTIVE; tick++) {
            voter.node.tick();
            voter.ready();
        }
        voter.handle(new VoteResponse(3, 2, 0, 1, false, true, 1));
        assertEquals(Role.FOLLOWER, voter.node.role());
        assertEquals(OptionalInt.of(1), voter.node.leaderId());
        assertEquals(0, voter.node.epoch(), "a pre-vote never moved the epoch");
    }

    @Test
    void aLeaderAnnouncementMakesAVoterWithoutALeaderFollowIt() {
        HandDrivenNode voter = new HandDrivenNode(3, new QuorumState(4, OptionalInt.empty(), OptionalInt.empty()));
        voter.ready();
        voter.handle(new BeginQuorumEpoch(1, 3, 4));
        Ready ready = voter.ready();
        assertEquals(OptionalInt.of(1), ready.quorumState().orElseThrow().leaderId(), "persisted before answering");
        assertEquals(List.of(new FetchRequest(3, 1, 4, 0, 0), new BeginQuorumEpochResponse(3, 1, 4, 1)),
                ready.messages(), "it starts fetching from the leader as it answers");
    }

    @Test
    void aFetchAtANewerEpochIsAnsweredNotBelieved() {
        HandDrivenNode voter = new HandDrivenNode(2, QuorumState.INITIAL);
        voter.ready();
        voter.handle(new FetchRequest(3, 2, 5, 0, 0));
        FetchResponse answer = voter.sent(FetchResponse.class).get(0);
        assertEquals(FetchError.NOT_LEADER, answer.error());
        assertEquals(0, voter.node.epoch(), "only a message that proves the epoch was entered moves it");
    }

    @Test
    void aVoteRequestAtANewerEpochMovesTheEpochBeforeItIsAnswered() {
        HandDrivenNode voter = new HandDrivenNode(2, QuorumState.INITIAL);
        voter.ready();
        voter.handle(new VoteRequest(3, 2, 5, 0, 0, false));
        Ready ready = voter.ready();
        assertEquals(new QuorumState(5, OptionalInt.of(3), OptionalInt.empty()), ready.quorumState().orElseThrow());
        assertEquals(List.of(new VoteResponse(2, 3, 5, RaftMessage.NO_LEADER, true, false, 5)), ready.messages());
    }
}
