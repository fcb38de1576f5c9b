package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A client append is one batch: the records of one {@link RaftNode#append} commit together or not at all, whatever
 * the fetch limit, failovers and truncations do, and the state machine receives them in one {@link CommittedBatch}.
 */
class AppendedBatchAtomicityTest {
    private static final int FETCH_MAX_ENTRIES = 3;

    private static List<byte[]> records(String prefix, int count) {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add((prefix + i).getBytes(StandardCharsets.UTF_8));
        }
        return records;
    }

    private static List<Long> offsets(List<LogEntry> entries) {
        return entries.stream().map(LogEntry::offset).toList();
    }

    private static FetchResponse onlyFetchResponse(HandDrivenNode leader) {
        List<FetchResponse> responses = leader.sent(FetchResponse.class);
        assertEquals(1, responses.size());
        return responses.get(0);
    }

    private static long countOf(List<byte[]> committed, String prefix) {
        return committed.stream().filter(r -> new String(r, StandardCharsets.UTF_8).startsWith(prefix)).count();
    }

    @Test
    void aBatchOnlyPartlyFetchedWhenItsLeaderDiesIsNeverCommittedByTheFollowerElectedNext() {
        HandDrivenQuorum quorum = HandDrivenQuorum.withNodeOneLeading(FETCH_MAX_ENTRIES);
        RaftNode leader = quorum.node(1);
        assertEquals(1, leader.highWatermark(), "every voter has the leader-change record");

        // Five records meant to land together (a topic and its partitions), more than one fetch may carry.
        leader.append(records("topic-", 5));
        List<RaftMessage> sent = quorum.takeReady(1);
        // The leader dies right after answering voter 2's held fetch; voter 3 hears nothing of the batch.
        sent.stream().filter(m -> m instanceof FetchResponse && m.destination() == 2).forEach(quorum::send);
        quorum.crash(1);
        quorum.deliverAll();

        // Voter 3 cannot win: voter 2 holds more of the log.
        quorum.tickUntil(q -> q.node(2).role() == Role.LEADER, 2, 3);
        RaftNode newLeader = quorum.node(2);
        quorum.deliverAll();
        assertTrue(newLeader.highWatermark() == newLeader.log().endOffset(), "voter 3 acknowledged the new epoch");

        long committed = countOf(quorum.member(2).committedRecords(), "topic-");
        assertTrue(committed == 0 || committed == 5, "the batch of 5 records committed " + committed
                + " of them: a batch commits whole or not at all");
        assertEquals(committed, countOf(quorum.member(3).committedRecords(), "topic-"));
    }

    @Test
    void aLeaderMarksEveryRecordOfAnAppendButTheLastAsContinued() {
        HandDrivenNode leader = HandDrivenNode.leaderOfEpochOne();
        leader.node.append(records("r", 3));
        leader.node.append(records("s", 1));
        List<LogEntry> appended = leader.ready().logWrites().append();
        assertEquals(List.of(LogEntry.EntryType.DATA_CONTINUED, LogEntry.EntryType.DATA_CONTINUED,
                LogEntry.EntryType.DATA, LogEntry.EntryType.DATA), appended.stream().map(LogEntry::type).toList());
    }

    @Test
    void aFetchResponseEndsAfterTheLastWholeBatchThatFitsItsLimit() {
        HandDrivenNode leader = HandDrivenNode.leaderOfEpochOne(FETCH_MAX_ENTRIES);
        leader.node.append(records("a", 2)); // offsets 1-2
        leader.node.append(records("b", 2)); // offsets 3-4: its second record does not fit
        leader.ready();
        leader.handle(new FetchRequest(2, 1, 1, 1, 1));
        assertEquals(List.of(1L, 2L), offsets(onlyFetchResponse(leader).entries()));
    }

    @Test
    void aFirstBatchLongerThanTheFetchLimitIsSentWhole() {
        HandDrivenNode leader = HandDrivenNode.leaderOfEpochOne(FETCH_MAX_ENTRIES);
        leader.node.append(records("long-", 7)); // offsets 1-7
        leader.node.append(records("next-", 1)); // offset 8
        leader.ready();
        leader.handle(new FetchRequest(2, 1, 1, 1, 1));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), offsets(onlyFetchResponse(leader).entries()),
                "the whole first batch, and not a record of the next");
    }

    @Test
    void aFetchFromInsideABatchGetsItsRestButDoesNotCountAsAnAcknowledgement() {
        HandDrivenNode leader = HandDrivenNode.leaderOfEpochOne(FETCH_MAX_ENTRIES);
        leader.node.append(records("b", 5)); // offsets 1-5
        leader.ready();
        leader.flush();
        // No correct member fetches from here; a member holding offsets 1-3 only must not help commit them.
        leader.handle(new FetchRequest(2, 1, 1, 4, 1));
        assertEquals(List.of(4L, 5L), offsets(onlyFetchResponse(leader).entries()));
        assertEquals(0, leader.node.highWatermark(), "offsets 1-3 of the batch are not acknowledged");
        leader.handle(new FetchRequest(2, 1, 1, 6, 1));
        leader.ready();
        assertEquals(6, leader.node.highWatermark(), "the whole batch is");
    }

    @Test
    void theStateMachineReceivesAnAppendLongerThanTheFetchLimitAsOneRun() {
        HandDrivenQuorum quorum = HandDrivenQuorum.withNodeOneLeading(FETCH_MAX_ENTRIES);
        quorum.node(1).append(records("topic-", 7));
        quorum.deliverAll();
        for (int id : HandDrivenQuorum.VOTERS) {
            List<CommittedBatch> committed = quorum.member(id).committed;
            assertEquals(1, committed.size(), "node " + id + " received " + committed);
            assertEquals(7, committed.get(0).records().size());
        }
    }

    /** Voter 2 holding offsets 0-2 of epoch 1 (one batch each) and 3-5 of epoch 2 (one batch), leader 1 of epoch 3. */
    private static HandDrivenNode followerWithABatchOfThree() {
        HandDrivenNode follower = new HandDrivenNode(2, new QuorumState(3, OptionalInt.empty(), OptionalInt.empty()));
        List<LogEntry> entries = new ArrayList<>();
        for (int offset = 0; offset < 3; offset++) {
            entries.add(LogEntry.data(offset, 1, new byte[] {(byte) offset}));
        }
        entries.addAll(LogEntry.batch(3, 2, records("x", 3)));
        follower.log.append(entries);
        follower.log.flush();
        follower.start(2, new QuorumState(3, OptionalInt.empty(), OptionalInt.empty()));
        follower.ready();
        follower.handle(new BeginQuorumEpoch(1, 2, 3));
        assertEquals(List.of(new FetchRequest(2, 1, 3, 6, 2)), follower.sent(FetchRequest.class));
        return follower;
    }

    @Test
    void aFollowerAppendsOnlyTheWholeBatchesOfAResponse() {
        HandDrivenNode follower = followerWithABatchOfThree();
        List<LogEntry> entries = new ArrayList<>(List.of(LogEntry.leaderChange(6, 3, 1)));
        entries.addAll(LogEntry.batch(7, 3, records("y", 3)).subList(0, 2)); // a leader never sends this
        follower.handle(new FetchResponse(1, 2, 3, 1, FetchError.NONE, 6, 2, 9, -1, -1, entries));
        Ready ready = follower.ready();
        assertEquals(List.of(6L), offsets(ready.logWrites().append()), "the part of a batch is left out");
        assertEquals(7, follower.node.highWatermark(), "the commit point stops at the log end, between batches");
    }

    @Test
    void aFollowerCutsADivergingLogAtTheStartOfTheBatchTheLeadersEpochEndFallsIn() {
        HandDrivenNode follower = followerWithABatchOfThree();
        // The leader's epoch 2 ends at 5, inside our batch 3-5 of epoch 2 (the leader never saw that batch whole):
        // truncating at 5 would leave part of it.
        follower.handle(new FetchResponse(1, 2, 3, 1, FetchError.NONE, 6, 2, 0, 2, 5, List.of()));
        Ready ready = follower.ready();
        assertEquals(OptionalLong.of(3), ready.logWrites().truncateTo());
        assertEquals(List.of(new FetchRequest(2, 1, 3, 3, 1)), ready.messages());
    }

    @Test
    void aRestartedNodeDropsTheBatchACrashToreAtTheEndOfItsLog() {
        HandDrivenNode node = new HandDrivenNode(2, new QuorumState(1, OptionalInt.empty(), OptionalInt.empty()));
        node.log.append(List.of(LogEntry.leaderChange(0, 1, 1)));
        node.log.append(LogEntry.batch(1, 1, records("torn-", 4)).subList(0, 2)); // the rest never reached the disk
        node.log.flush();
        node.start(2, new QuorumState(1, OptionalInt.empty(), OptionalInt.empty()));
        Ready first = node.ready();
        assertEquals(OptionalLong.of(1), first.logWrites().truncateTo(), "the part of the batch goes");
        assertEquals(1, node.node.log().endOffset());
        assertEquals(1, node.log.endOffset());
        node.handle(new BeginQuorumEpoch(1, 2, 1));
        assertEquals(List.of(new FetchRequest(2, 1, 1, 1, 1)), node.sent(FetchRequest.class),
                "it fetches the batch again from its start");
    }
}
