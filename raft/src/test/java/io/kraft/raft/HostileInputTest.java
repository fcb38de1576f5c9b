package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.VoteRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Raft input a correct member never sends: an epoch far ahead (a Vote at Integer.MAX_VALUE), an oversized batch,
 * fetches from endless made-up observer ids. None of it may wedge the quorum or grow the leader without bound.
 */
class HostileInputTest {

    @Test
    void aVoteAtTheLargestEpochIsIgnoredAndTheQuorumKeepsElecting() {
        HandDrivenQuorum quorum = HandDrivenQuorum.withNodeOneLeading(100);
        int epoch = quorum.node(1).epoch();
        for (int voter : new int[] {1, 2, 3}) {
            quorum.send(new VoteRequest(3, voter, Integer.MAX_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, false));
        }
        quorum.deliverAll();
        for (int voter : new int[] {1, 2, 3}) {
            assertEquals(epoch, quorum.node(voter).epoch(), "node " + voter + " believed an impossible epoch");
        }
        assertEquals(Role.LEADER, quorum.node(1).role());
        // and elections still work: the leader goes away, another is elected in the next epoch
        quorum.crash(1);
        quorum.tickUntil(q -> q.node(2).role() == Role.LEADER || q.node(3).role() == Role.LEADER, 2, 3);
        assertTrue(Math.max(quorum.node(2).epoch(), quorum.node(3).epoch()) <= epoch + 2);
    }

    @Test
    void anEpochAheadByLessThanTheJumpLimitIsStillBelieved() {
        HandDrivenQuorum quorum = HandDrivenQuorum.withNodeOneLeading(100);
        int ahead = quorum.node(2).epoch() + RaftConfig.MAX_EPOCH_JUMP;
        quorum.send(new RaftMessage.BeginQuorumEpoch(3, 2, ahead));
        quorum.deliverAll();
        assertTrue(quorum.node(2).epoch() >= ahead, "a member that missed many elections still catches up");
    }

    @Test
    void anAppendLargerThanABatchMayCarryIsRefusedAndTheLogStaysUsable() throws Exception {
        HandDrivenQuorum quorum = HandDrivenQuorum.withNodeOneLeading(100);
        List<byte[]> huge = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            huge.add(new byte[1 << 20]);
        }
        CompletableFuture<Long> refused = quorum.node(1).append(huge);
        ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                refused::get);
        assertInstanceOf(BatchTooLargeException.class, failure.getCause());
        CompletableFuture<Long> fine = quorum.node(1).append(List.of(new byte[] {1}));
        quorum.deliverAll();
        quorum.tickUntil(q -> fine.isDone(), 1, 2, 3);
        assertTrue(fine.get() > 0);
    }

    @Test
    void fetchesFromEndlessMadeUpObserversKeepTheLeadersTrackingBounded() {
        HandDrivenQuorum quorum = HandDrivenQuorum.withNodeOneLeading(100);
        for (int id = 1_000; id < 1_000 + RaftConfig.MAX_TRACKED_OBSERVERS + 500; id++) {
            quorum.node(1).handle(new FetchRequest(id, 1, quorum.node(1).epoch(), 0, 0));
            quorum.takeReady(1);
        }
        long observers = quorum.node(1).replicaProgress().stream().filter(p -> !p.voter()).count();
        assertEquals(RaftConfig.MAX_TRACKED_OBSERVERS, observers);
    }
}
