package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import io.kraft.raft.RaftMessage.VoteRequest;
import io.kraft.raft.RaftMessage.VoteResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** One node driven by hand: durability ordering and rejection of bad input. */
class RaftNodeTest {
    private final InMemoryRaftLog log = new InMemoryRaftLog();
    private final InMemorySnapshotStore snapshots = new InMemorySnapshotStore();

    private RaftNode node(int nodeId, Set<Integer> voters) {
        return new RaftNode(new RaftConfig(nodeId, voters, 10, 20, 10, 10, 4, 100), log, snapshots,
                QuorumState.INITIAL, new Random(7));
    }

    /** The node's next Ready, its writes carried out on this test's log. */
    private Ready ready(RaftNode node) {
        return HandDriver.ready(node, log, snapshots);
    }

    private List<RaftMessage> tickUntilMessages(RaftNode node, List<Ready> readies) {
        for (int i = 0; i < 100; i++) {
            node.tick();
            Ready ready = ready(node);
            readies.add(ready);
            if (!ready.messages().isEmpty()) {
                return ready.messages();
            }
        }
        throw new AssertionError("node sent nothing in 100 ticks");
    }

    /** Drives node 1 of {1,2,3} through pre-vote and vote to leadership in epoch 1. */
    private RaftNode electNodeOne() {
        RaftNode node = node(1, Set.of(1, 2, 3));
        ready(node);
        List<RaftMessage> preVotes = tickUntilMessages(node, new ArrayList<>());
        VoteRequest preVote = (VoteRequest) preVotes.get(0);
        assertTrue(preVote.preVote());
        node.handle(new VoteResponse(2, 1, 0, RaftMessage.NO_LEADER, true, true, preVote.epoch()));
        Ready candidacy = ready(node);
        assertEquals(Role.CANDIDATE, node.role());
        assertEquals(new QuorumState(1, OptionalInt.of(1), OptionalInt.empty()), candidacy.quorumState().orElseThrow(),
                "the self-vote is persisted in the same Ready that asks for votes");
        node.handle(new VoteResponse(2, 1, 1, RaftMessage.NO_LEADER, true, false, 1));
        assertEquals(Role.LEADER, node.role());
        Ready leadership = ready(node);
        assertTrue(leadership.flushLog(), "the leader-change record must be flushed");
        assertEquals(OptionalInt.of(1), leadership.quorumState().orElseThrow().leaderId());
        return node;
    }

    @Test
    void aNewQuorumsLowestVoterStandsAtOnceAndTheOthersWaitTheirTimeout() {
        RaftNode first = node(1, Set.of(1, 2, 3));
        ready(first);
        first.tick();
        List<RaftMessage> preVotes = ready(first).messages();
        assertEquals(2, preVotes.size(), "no election timeout to wait out in epoch 0: " + preVotes);
        assertTrue(((VoteRequest) preVotes.get(0)).preVote());

        InMemoryRaftLog secondLog = new InMemoryRaftLog();
        InMemorySnapshotStore secondSnapshots = new InMemorySnapshotStore();
        RaftNode second = new RaftNode(new RaftConfig(2, Set.of(1, 2, 3), 10, 20, 10, 10, 4, 100), secondLog,
                secondSnapshots, QuorumState.INITIAL, new Random(7));
        HandDriver.ready(second, secondLog, secondSnapshots);
        second.tick();
        assertTrue(HandDriver.ready(second, secondLog, secondSnapshots).messages().isEmpty(),
                "voter 2 waits its election timeout, so it does not split voter 1's vote");
    }

    @Test
    void aRestartedFormerLeaderAsksAtOnceAndFollowsTheLeaderItIsToldOf() {
        RaftNode restarted = new RaftNode(new RaftConfig(1, Set.of(1, 2, 3), 10, 20, 10, 10, 4, 100), log, snapshots,
                new QuorumState(1, OptionalInt.of(1), OptionalInt.of(1)), new Random(7));
        ready(restarted);
        restarted.tick();
        List<RaftMessage> preVotes = ready(restarted).messages();
        assertEquals(2, preVotes.size(), "no election timeout to wait out: " + preVotes);
        assertTrue(((VoteRequest) preVotes.get(0)).preVote(), "a pre-vote, which disturbs no live leader");
        assertEquals(1, restarted.epoch());

        // Voter 2 leads epoch 2, elected while this node was down: it refuses and names itself.
        restarted.handle(new VoteResponse(2, 1, 2, 2, false, true, 2));
        ready(restarted);
        assertEquals(Role.FOLLOWER, restarted.role());
        assertEquals(OptionalInt.of(2), restarted.leaderId());
        assertEquals(2, restarted.epoch());
    }

    @Test
    void aRestartedFollowerWithoutALeaderWaitsAnElectionTimeout() {
        RaftNode restarted = new RaftNode(new RaftConfig(1, Set.of(1, 2, 3), 10, 20, 10, 10, 4, 100), log, snapshots,
                new QuorumState(1, OptionalInt.of(2), OptionalInt.empty()), new Random(7));
        ready(restarted);
        restarted.tick();
        assertEquals(List.of(), ready(restarted).messages());
        assertEquals(Role.FOLLOWER, restarted.role());
    }

    @Test
    void leaderIsReadyOnceItsLeaderChangeRecordCommitsAndOnlyOncePerEpoch() {
        RaftNode node = electNodeOne();
        log.flush();
        node.handleLogFlushed(log.endOffset());
        assertTrue(ready(node).leaderReady().isEmpty(), "the leader-change record needs a second voter");
        FetchRequest fetch = new FetchRequest(2, 1, 1, 1, 1);
        node.handle(fetch);
        Ready ready = ready(node);
        assertEquals(new LeaderReady(1, 1), ready.leaderReady().orElseThrow());
        node.append(List.of(new byte[] {1}));
        log.flush();
        node.handleLogFlushed(log.endOffset());
        node.handle(new FetchRequest(2, 1, 1, 2, 1));
        assertTrue(ready(node).leaderReady().isEmpty(), "announced once per epoch");
    }

    @Test
    void aFollowerKnowsOfCommitsItHasNotFetchedYet() {
        RaftNode follower = node(2, Set.of(1, 2, 3));
        ready(follower);
        follower.handle(new RaftMessage.BeginQuorumEpoch(1, 2, 1));
        ready(follower);
        // The leader's high watermark is 5, but this response brings the entries up to offset 1 only.
        follower.handle(new FetchResponse(1, 2, 1, 1, FetchError.NONE, 0, 0, 5, -1, -1,
                List.of(LogEntry.leaderChange(0, 1, 1), LogEntry.data(1, 1, new byte[] {7}))));
        assertEquals(2, follower.highWatermark(), "committed as far as its log goes");
        assertEquals(5, follower.leaderHighWatermark(), "committed as far as the leader said");
    }

    @Test
    void singleVoterCommitsOnlyAfterItsOwnFlush() {
        RaftNode node = node(1, Set.of(1));
        for (int i = 0; i < 100 && node.role() != Role.LEADER; i++) {
            node.tick();
        }
        assertEquals(Role.LEADER, node.role());
        CompletableFuture<Long> append = node.append(List.of(new byte[] {42}));
        Ready ready = ready(node);
        assertTrue(ready.flushLog());
        assertEquals(0, node.highWatermark());
        assertFalse(append.isDone(), "nothing commits before the leader's own fsync");
        log.flush();
        node.handleLogFlushed(log.endOffset());
        assertEquals(2, node.highWatermark());
        assertEquals(1L, append.join());
        List<CommittedBatch> committed = ready(node).committed();
        assertEquals(1, committed.size());
        assertEquals(1, committed.get(0).baseOffset());
    }

    @Test
    void grantedVoteIsPersistedBeforeTheResponseAndOnlyOncePerEpoch() {
        RaftNode node = node(1, Set.of(1, 2, 3));
        ready(node);
        node.handle(new VoteRequest(2, 1, 1, 0, 0, false));
        Ready first = ready(node);
        assertEquals(new QuorumState(1, OptionalInt.of(2), OptionalInt.empty()), first.quorumState().orElseThrow());
        assertTrue(((VoteResponse) first.messages().get(0)).granted());

        node.handle(new VoteRequest(3, 1, 1, 0, 0, false));
        Ready second = ready(node);
        assertFalse(((VoteResponse) second.messages().get(0)).granted(), "one vote per epoch");
        assertTrue(second.quorumState().isEmpty());
    }

    @Test
    void rejectsVoteFromUnknownVoterWithoutChangingState() {
        RaftNode node = node(1, Set.of(1, 2, 3));
        ready(node);
        node.handle(new VoteRequest(9, 1, 5, 100, 4, false));
        Ready ready = ready(node);
        assertFalse(((VoteResponse) ready.messages().get(0)).granted());
        assertEquals(0, node.epoch(), "a vote request from outside the voter set does not move the epoch");
    }

    @Test
    void preVoteLeavesEpochAndVoteAlone() {
        RaftNode node = node(1, Set.of(1, 2, 3));
        ready(node);
        node.handle(new VoteRequest(2, 1, 3, 0, 0, true));
        Ready ready = ready(node);
        assertTrue(((VoteResponse) ready.messages().get(0)).granted());
        assertTrue(ready.quorumState().isEmpty());
        assertEquals(0, node.epoch());
    }

    @Test
    void refusesVoteToCandidateWithShorterLog() {
        log.append(List.of(LogEntry.data(0, 1, new byte[0]), LogEntry.data(1, 1, new byte[0])));
        RaftNode node = new RaftNode(new RaftConfig(1, Set.of(1, 2, 3), 10, 20, 10, 10, 4, 100), log, snapshots,
                new QuorumState(1, OptionalInt.empty(), OptionalInt.empty()), new Random(1));
        ready(node);
        node.handle(new VoteRequest(2, 1, 2, 1, 1, false));
        assertFalse(((VoteResponse) ready(node).messages().get(0)).granted());
        assertEquals(2, node.epoch());
    }

    @Test
    void leaderFencesFetchFromStaleEpoch() {
        RaftNode leader = electNodeOne();
        leader.handle(new FetchRequest(2, 1, 0, 0, 0));
        FetchResponse response = (FetchResponse) ready(leader).messages().get(0);
        assertEquals(FetchError.FENCED_LEADER_EPOCH, response.error());
        assertEquals(1, response.epoch());
        assertEquals(1, response.leaderId());
        assertTrue(response.entries().isEmpty());
        assertEquals(Role.LEADER, leader.role());
    }

    @Test
    void fetchBeyondLogEndIsToldWhereToTruncateAndNotCounted() {
        RaftNode leader = electNodeOne();
        log.flush();
        leader.handleLogFlushed(log.endOffset());
        leader.handle(new FetchRequest(2, 1, 1, 100, 1));
        FetchResponse response = (FetchResponse) ready(leader).messages().get(0);
        assertTrue(response.diverging());
        assertEquals(1, response.divergingEpoch());
        assertEquals(log.endOffset(), response.divergingEndOffset());
        assertEquals(0, leader.highWatermark(), "a diverging position acknowledges nothing");
    }

    @Test
    void followerAcknowledgesOnlyFlushedEntries() {
        RaftNode follower = node(2, Set.of(1, 2, 3));
        ready(follower);
        follower.handle(new RaftMessage.BeginQuorumEpoch(1, 2, 1));
        Ready announce = ready(follower);
        assertEquals(OptionalInt.of(1), announce.quorumState().orElseThrow().leaderId());
        FetchRequest first = (FetchRequest) announce.messages().stream()
                .filter(m -> m instanceof FetchRequest).findFirst().orElseThrow();
        assertEquals(0, first.fetchOffset());

        follower.handle(new FetchResponse(1, 2, 1, 1, FetchError.NONE, 0, 0, 0, -1, -1,
                List.of(LogEntry.leaderChange(0, 1, 1), LogEntry.data(1, 1, new byte[] {7}))));
        Ready appended = ready(follower);
        assertTrue(appended.flushLog());
        assertTrue(appended.messages().stream().noneMatch(m -> m instanceof FetchRequest),
                "no fetch (= acknowledgement) before the flush");

        log.flush();
        follower.handleLogFlushed(log.endOffset());
        FetchRequest next = (FetchRequest) ready(follower).messages().get(0);
        assertEquals(2, next.fetchOffset());
        assertEquals(1, next.lastFetchedEpoch());
    }

    @Test
    void preferredSuccessorStandsAtOnceEvenIfNotLeaderArrivedFirst() {
        RaftNode follower = node(2, Set.of(1, 2, 3));
        ready(follower);
        follower.handle(new RaftMessage.BeginQuorumEpoch(1, 2, 1));
        ready(follower);
        follower.handle(new FetchResponse(1, 2, 1, RaftMessage.NO_LEADER, FetchError.NOT_LEADER, 0, 0, 0, -1, -1,
                List.of()));
        assertTrue(follower.leaderId().isEmpty(), "the resigned leader's answer clears the leader");
        follower.handle(new RaftMessage.EndQuorumEpoch(1, 2, 1, List.of(2, 3)));
        for (int tick = 0; tick < 4 && follower.role() == Role.FOLLOWER; tick++) {
            follower.tick();
        }
        assertEquals(Role.PROSPECTIVE, follower.role(), "the first preferred successor does not wait a full timeout");
    }

    @Test
    void voteResponseNamesOnlyALeaderHeardFirstHand() {
        RaftNode follower = node(2, Set.of(1, 2, 3));
        ready(follower);
        follower.handle(new VoteResponse(3, 2, 1, 1, false, true, 1));
        ready(follower);
        assertEquals(OptionalInt.of(1), follower.leaderId(), "learned leader 1 from voter 3");
        follower.handle(new VoteRequest(3, 2, 2, 0, 0, true));
        VoteResponse answer = (VoteResponse) ready(follower).messages().get(0);
        assertTrue(answer.granted(), "a leader known only by hearsay does not block a pre-vote");
        assertEquals(RaftMessage.NO_LEADER, answer.leaderId(), "and is not passed on");
    }

    @Test
    void rejectsMessageAddressedToAnotherNode() {
        RaftNode node = node(1, Set.of(1, 2, 3));
        assertThrows(IllegalArgumentException.class, () -> node.handle(new VoteRequest(2, 3, 1, 0, 0, false)));
    }

    @Test
    void appendOnFollowerFailsWithNotLeader() {
        RaftNode node = node(1, Set.of(1, 2, 3));
        CompletableFuture<Long> append = node.append(List.of(new byte[] {1}));
        assertTrue(append.isCompletedExceptionally());
        assertThrows(IllegalArgumentException.class, () -> node.append(List.of()));
    }
}
