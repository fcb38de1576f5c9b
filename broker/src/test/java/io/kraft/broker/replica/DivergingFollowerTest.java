package io.kraft.broker.replica;

import static io.kraft.broker.replica.ReplicatedLeaderHarness.LEADER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.fetch.PartitionRead;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.EpochEndOffset;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica returns with a tail the leader never had (it led epoch 0 and wrote records nobody else got) and is at
 * least as long as the leader's log. The leader answers its fetch with a diverging epoch; until the follower has
 * truncated and fetched again, that fetch's offset is not its log end: it must neither join the ISR nor move the
 * high watermark past records it does not have.
 */
class DivergingFollowerTest {
    private static final int RETURNING = 2;
    private static final int STEADY = 3;

    @TempDir
    Path logDir;

    private ReplicatedLeaderHarness harness;

    @AfterEach
    void close() {
        if (harness != null) {
            harness.close();
        }
    }

    /** Epoch 0 wrote offsets 0-2 everywhere; epoch 1 (this leader) wrote 3-4. The returning replica has 0-5 of 0. */
    private void divergedHistory(List<Integer> isr) throws Exception {
        harness = new ReplicatedLeaderHarness(logDir, isr);
        harness.append(3);
        harness.followerFetch(STEADY, 1, 3, 0);
        harness.bumpLeaderEpoch();
        harness.append(2);
        assertEquals(5, harness.partition().logEndOffset());
    }

    @Test
    void aDivergingFetchDoesNotPutTheReplicaBackIntoTheIsr() throws Exception {
        divergedHistory(List.of(LEADER, STEADY));
        harness.followerFetch(STEADY, 1, 5, 1);
        assertEquals(5, harness.partition().highWatermark());

        PartitionRead read = harness.followerFetch(RETURNING, 1, 6, 0);
        assertEquals(Errors.NONE, read.error());
        assertEquals(new EpochEndOffset(0, 3), read.divergingEpoch().orElseThrow(), "epoch 0 ended at 3 here");
        assertEquals(List.of(), harness.proposals, "offset 6 of epoch 0 is not a position in this log");
        assertTrue(harness.partition().pendingIsrChange().isEmpty());

        // The follower truncates to 3, fetches the leader's epoch 1, and then it has caught up.
        harness.followerFetch(RETURNING, 1, 3, 0);
        assertEquals(List.of(), harness.proposals, "at 3 it is still behind the high watermark 5");
        harness.followerFetch(RETURNING, 1, 5, 1);
        assertEquals(1, harness.proposals.size());
        assertEquals(List.of(LEADER, STEADY, RETURNING), harness.proposals.get(0).request().newIsr());
    }

    @Test
    void aDivergingFetchOfAnIsrMemberDoesNotMoveTheHighWatermark() throws Exception {
        divergedHistory(List.of(LEADER, RETURNING, STEADY));
        harness.followerFetch(STEADY, 1, 5, 1);
        assertEquals(0, harness.partition().highWatermark(), "the new epoch waits for every member's position");

        harness.followerFetch(RETURNING, 1, 6, 0);
        assertEquals(0, harness.partition().highWatermark(), "replica 2 does not have offsets 3 and 4");

        harness.followerFetch(RETURNING, 1, 3, 0);
        assertEquals(3, harness.partition().highWatermark());
        harness.followerFetch(RETURNING, 1, 5, 1);
        assertEquals(5, harness.partition().highWatermark());
    }
}
