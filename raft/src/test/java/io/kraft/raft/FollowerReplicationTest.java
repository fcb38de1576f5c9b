package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A follower pulls the leader's log: appends what it gets, truncates where the logs part, learns the commit point. */
class FollowerReplicationTest {

    /** Voter 2 holding offsets 0-2 of epoch 1 and 3-5 of epoch 2 (flushed), following leader 1 of epoch 3. */
    private static HandDrivenNode followerWithSixEntries() {
        HandDrivenNode follower = new HandDrivenNode(2, new QuorumState(3, OptionalInt.empty(), OptionalInt.empty()));
        List<LogEntry> entries = new ArrayList<>();
        for (int offset = 0; offset < 6; offset++) {
            entries.add(LogEntry.data(offset, offset < 3 ? 1 : 2, new byte[] {(byte) offset}));
        }
        follower.log.append(entries);
        follower.log.flush();
        follower.start(2, new QuorumState(3, OptionalInt.empty(), OptionalInt.empty()));
        follower.ready();
        follower.handle(new BeginQuorumEpoch(1, 2, 3));
        assertEquals(List.of(new FetchRequest(2, 1, 3, 6, 2)), follower.sent(FetchRequest.class));
        return follower;
    }

    @Test
    void followerTruncatesToTheDivergingEpochBeforeFetchingAgain() {
        HandDrivenNode follower = followerWithSixEntries();
        // The leader's epoch 2 ends at offset 4: our offsets 4 and 5 are not in its log.
        follower.handle(new FetchResponse(1, 2, 3, 1, FetchError.NONE, 6, 2, 0, 2, 4, List.of()));
        Ready ready = follower.ready();
        assertEquals(OptionalLong.of(4), ready.logWrites().truncateTo(), "the truncation goes to the driver");
        assertEquals(List.of(new FetchRequest(2, 1, 3, 4, 2)), ready.messages(), "and the fetch continues from it");
        assertEquals(4, follower.log.endOffset());
        assertEquals(4, follower.node.flushedEndOffset(), "what was cut off no longer counts as durable");
    }

    @Test
    void followerLearnsTheHighWatermarkOnlyUpToTheEntriesItHolds() {
        HandDrivenNode follower = followerWithSixEntries();
        follower.handle(new FetchResponse(1, 2, 3, 1, FetchError.NONE, 6, 2, 9, -1, -1,
                List.of(LogEntry.leaderChange(6, 3, 1))));
        Ready ready = follower.ready();
        assertEquals(7, follower.node.highWatermark(), "the leader's high watermark of 9 is capped at our log end");
        assertEquals(List.of(0L, 3L), ready.committed().stream().map(CommittedBatch::baseOffset).toList(),
                "the records below it go to the state machine, one batch per epoch");
        assertTrue(ready.messages().isEmpty(), "no fetch past the new entry before its flush is reported");
        follower.flush();
        assertEquals(List.of(new FetchRequest(2, 1, 3, 7, 3)), follower.sent(FetchRequest.class));
    }

    @Test
    void anAnswerToAnOlderFetchPositionIsIgnored() {
        HandDrivenNode follower = followerWithSixEntries();
        follower.handle(new FetchResponse(1, 2, 3, 1, FetchError.NONE, 4, 2, 0, -1, -1,
                List.of(LogEntry.leaderChange(4, 3, 1))));
        Ready ready = follower.ready();
        assertTrue(ready.logWrites().isEmpty(), "entries for another position are not appended");
        assertEquals(6, follower.node.log().endOffset());
    }
}
