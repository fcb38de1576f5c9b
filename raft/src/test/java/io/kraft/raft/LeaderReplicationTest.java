package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.RaftMessage.EndQuorumEpoch;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leader serves fetches, holds idle ones, counts what a majority durably holds, and resigns without a quorum. */
class LeaderReplicationTest {

    @Test
    void leaderServesFetchesFromEntriesItsDriverHasNotWrittenYet() {
        HandDrivenNode leader = HandDrivenNode.leaderOfEpochOne();
        leader.node.append(List.of(new byte[] {7}, new byte[] {8}));
        Ready unwritten = leader.node.ready(); // handed out, but this driver does not write it yet
        assertEquals(2, unwritten.logWrites().append().size());
        assertEquals(1, leader.log.endOffset(), "the driver's log still ends after the leader-change record");

        leader.handle(new FetchRequest(2, 1, 1, 1, 1));
        FetchResponse response = (FetchResponse) leader.node.ready().messages().get(0);
        assertEquals(List.of(1L, 2L), response.entries().stream().map(LogEntry::offset).toList());
        assertEquals(1, leader.node.highWatermark(), "voter 2 acknowledged the leader-change record only");
    }

    @Test
    void anIdleFetchIsHeldUntilTheLeaderHasNewEntries() {
        HandDrivenNode leader = HandDrivenNode.leaderOfEpochOne();
        leader.handle(new FetchRequest(2, 1, 1, 1, 1));
        assertEquals(1, leader.sent(FetchResponse.class).size(), "answered at once: it carries a new high watermark");
        leader.handle(new FetchRequest(2, 1, 1, 1, 1));
        assertTrue(leader.sent(FetchResponse.class).isEmpty(), "nothing new: held");
        leader.node.append(List.of(new byte[] {1}));
        FetchResponse released = leader.sent(FetchResponse.class).get(0);
        assertEquals(1, released.entries().size(), "the append answers the held fetch");
    }

    @Test
    void leaderCutOffFromEveryVoterResignsAfterOneAndAHalfFetchTimeouts() {
        HandDrivenNode leader = HandDrivenNode.leaderOfEpochOne();
        int ticks = 0;
        List<EndQuorumEpoch> resignations = List.of();
        while (leader.node.role() == Role.LEADER && ticks < 10 * HandDrivenNode.FETCH_TIMEOUT_TICKS) {
            leader.node.tick();
            ticks++;
            resignations = leader.sent(EndQuorumEpoch.class);
        }
        assertEquals(HandDrivenNode.FETCH_TIMEOUT_TICKS * 3 / 2, ticks);
        assertEquals(List.of(2, 3), resignations.stream().map(EndQuorumEpoch::destination).toList(),
                "it tells the voters to elect a successor at once");
        assertEquals(1, leader.node.epoch(), "resigning does not change the epoch");
    }
}
