package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The path from a leader change to the first acks=all answer has no timer on it: the new leader takes a produce as
 * soon as it has applied the leadership, and its high watermark moves on the first follower fetch that shows the
 * records, which answers the waiting produce then and there (the harness's clock never moves).
 */
class NewLeaderAcknowledgementTest {
    private static final int FOLLOWER = 2;

    @TempDir
    Path dir;

    @Test
    void theFirstFollowerFetchAfterALeaderChangeMovesTheWatermarkAndAnswersAcksAll() throws Exception {
        try (ReplicatedLeaderHarness harness = new ReplicatedLeaderHarness(dir, List.of(1, FOLLOWER))) {
            harness.append(5);
            harness.followerFetch(FOLLOWER, 1, 3, 0);
            assertEquals(3, harness.partition().highWatermark(), "offsets 3-4 are the uncommitted tail it inherits");

            harness.bumpLeaderEpoch();
            CompletableFuture<Map<TopicPartition, PartitionProduceResult>> produce = harness.replicaManager
                    .appendRecords(30_000, (short) -1, false, Map.of(ReplicatedLeaderHarness.TP,
                            ReplicaManagerTest.batch(3)));
            assertFalse(produce.isDone(), "acks=all waits for the follower");
            assertEquals(8, harness.partition().logEndOffset(), "taken at once in the new epoch");

            harness.followerFetch(FOLLOWER, 1, 5, 0);
            assertEquals(5, harness.partition().highWatermark(), "the first fetch in the new epoch moves it");
            harness.followerFetch(FOLLOWER, 1, 8, 1);
            assertTrue(produce.isDone(), "answered by the fetch that showed the records, not by a timer");
            assertEquals(Errors.NONE, produce.get(15, TimeUnit.SECONDS).get(ReplicatedLeaderHarness.TP).error());
            assertEquals(8, harness.partition().highWatermark());
        }
    }
}
