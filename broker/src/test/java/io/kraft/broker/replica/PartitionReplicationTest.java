package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.fetch.FetchIsolation;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replication rules of one partition, with times given explicitly: the high watermark over the ISR, ISR
 * expansion and shrink proposals, one change in flight, and a follower's writes fenced by its leader epoch.
 */
class PartitionReplicationTest {
    private static final int LEADER = 1;
    private static final int FOLLOWER_A = 2;
    private static final int FOLLOWER_B = 3;
    private static final long LAG_MS = 10_000;
    private static final short ACKS_ONE = 1;

    @TempDir
    Path dir;

    private Log log;

    @AfterEach
    void close() {
        if (log != null) {
            log.close();
        }
    }

    private Partition partition(int localBrokerId) {
        log = Log.open(dir.resolve("t-0"), LogConfig.defaults());
        return new Partition(new TopicPartition("t", 0), UUID.randomUUID(), localBrokerId, log, 0L);
    }

    private static PartitionRegistration registration(List<Integer> isr, int leaderEpoch, int partitionEpoch) {
        return new PartitionRegistration(List.of(LEADER, FOLLOWER_A, FOLLOWER_B), isr, LEADER, leaderEpoch,
                partitionEpoch);
    }

    private static ByteBuffer batch(int records) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(1024), CompressionType.NONE, 0);
        for (int i = 0; i < records; i++) {
            builder.append(1_000L, null, ByteBuffer.wrap(("r" + i).getBytes(StandardCharsets.UTF_8)));
        }
        return builder.build();
    }

    @Test
    void theHighWatermarkIsTheSmallestLogEndOverTheIsr() {
        Partition partition = partition(LEADER);
        partition.makeLeader(registration(List.of(LEADER, FOLLOWER_A, FOLLOWER_B), 0, 0), 0);
        partition.appendAsLeader(batch(10), ACKS_ONE, 0);
        assertEquals(0, partition.highWatermark());

        partition.updateFollowerFetchState(FOLLOWER_A, 10, 1);
        assertEquals(0, partition.highWatermark(), "B's position is unknown: the watermark waits");
        assertTrue(partition.updateFollowerFetchState(FOLLOWER_B, 4, 1));
        assertEquals(4, partition.highWatermark());
        partition.updateFollowerFetchState(FOLLOWER_B, 10, 2);
        assertEquals(10, partition.highWatermark());
    }

    @Test
    void withEligibleLeaderReplicasTheHighWatermarkWaitsWhileTheIsrIsUnderMinIsr() {
        Partition partition = partition(LEADER);
        partition.setMinIsr(new MinIsr(2, true));
        partition.makeLeader(registration(List.of(LEADER), 0, 0), 0);
        partition.appendAsLeader(batch(10), ACKS_ONE, 0);
        assertEquals(0, partition.highWatermark(), "KIP-966's strict min ISR: an ISR of one holds it");

        partition.setMinIsr(new MinIsr(2, false));
        partition.appendAsLeader(batch(1), ACKS_ONE, 0);
        assertEquals(11, partition.highWatermark(), "without the feature an ISR of one moves it, as before");
    }

    @Test
    void aCaughtUpFollowerOutsideTheIsrIsProposedOnceItsBrokerIsEligible() {
        Partition partition = partition(LEADER);
        partition.makeLeader(registration(List.of(LEADER, FOLLOWER_A), 0, 0), 0);
        partition.appendAsLeader(batch(10), ACKS_ONE, 0);
        partition.updateFollowerFetchState(FOLLOWER_A, 10, 1);
        assertEquals(10, partition.highWatermark());

        partition.updateFollowerFetchState(FOLLOWER_B, 6, 1);
        assertEquals(Optional.empty(), partition.maybeExpandIsr(FOLLOWER_B, (id, epoch) -> true, 1), "behind the watermark");
        partition.updateFollowerFetchState(FOLLOWER_B, 10, 2);
        assertEquals(Optional.empty(), partition.maybeExpandIsr(FOLLOWER_B, (id, epoch) -> false, 2), "its broker is fenced");
        IsrChange change = partition.maybeExpandIsr(FOLLOWER_B, (id, epoch) -> true, 2).orElseThrow();
        assertEquals(List.of(LEADER, FOLLOWER_A, FOLLOWER_B), change.newIsr());
        assertEquals(0, change.leaderEpoch());
        assertEquals(0, change.partitionEpoch());
        assertEquals(Optional.empty(), partition.maybeExpandIsr(FOLLOWER_B, (id, epoch) -> true, 3), "one change in flight");

        // The controller's answer is applied at once; the next metadata delta brings the same state.
        assertFalse(partition.completeIsrChange(change, Optional.of(registration(change.newIsr(), 0, 1)), 4));
        assertEquals(List.of(LEADER, FOLLOWER_A, FOLLOWER_B), partition.registration().isr());
        assertEquals(Optional.empty(), partition.pendingIsrChange());
        assertFalse(partition.updateRegistration(registration(List.of(LEADER, FOLLOWER_A), 0, 0)),
                "an older partition epoch is ignored");
        assertEquals(3, partition.registration().isr().size());
    }

    @Test
    void aJoiningReplicaHoldsTheHighWatermarkWhileItsExpansionIsInFlight() {
        Partition partition = partition(LEADER);
        partition.makeLeader(registration(List.of(LEADER), 0, 0), 0);
        partition.appendAsLeader(batch(5), ACKS_ONE, 0);
        assertEquals(5, partition.highWatermark(), "a single-member ISR follows every append");
        partition.updateFollowerFetchState(FOLLOWER_A, 5, 1);
        IsrChange change = partition.maybeExpandIsr(FOLLOWER_A, (id, epoch) -> true, 1).orElseThrow();

        partition.appendAsLeader(batch(5), ACKS_ONE, 2);
        assertEquals(5, partition.highWatermark(), "A may be in the ISR any moment: it must have what is committed");
        partition.completeIsrChange(change, Optional.empty(), 3);
        assertEquals(10, partition.highWatermark(), "refused: the leader alone is the ISR again");
        assertEquals(Optional.empty(), partition.maybeExpandIsr(FOLLOWER_A, (id, epoch) -> true, 3), "backing off");
    }

    @Test
    void aMemberThatHasNotCaughtUpForTheLagTimeIsProposedOut() {
        Partition partition = partition(LEADER);
        partition.makeLeader(registration(List.of(LEADER, FOLLOWER_A, FOLLOWER_B), 0, 0), 1_000);
        partition.appendAsLeader(batch(10), ACKS_ONE, 1_000);
        // A keeps up; B fetched once, far behind, and then stopped.
        partition.updateFollowerFetchState(FOLLOWER_B, 0, 2_000);
        partition.updateFollowerFetchState(FOLLOWER_A, 10, 2_000);
        assertEquals(Optional.empty(), partition.maybeShrinkIsr(1_000 + LAG_MS, LAG_MS), "within the lag time");

        partition.updateFollowerFetchState(FOLLOWER_A, 10, 1_000 + LAG_MS + 1);
        IsrChange change = partition.maybeShrinkIsr(1_000 + LAG_MS + 1, LAG_MS).orElseThrow();
        assertEquals(List.of(LEADER, FOLLOWER_A), change.newIsr());
        assertEquals(0, partition.highWatermark(), "the watermark waits until the shrink is committed");
        assertTrue(partition.completeIsrChange(change, Optional.of(registration(change.newIsr(), 0, 1)), 12_000));
        assertEquals(10, partition.highWatermark());
    }

    @Test
    void aFollowerBehindButReachingWhatItsPreviousFetchSawCountsAsCaughtUpThen() {
        Partition partition = partition(LEADER);
        partition.makeLeader(registration(List.of(LEADER, FOLLOWER_A), 0, 0), 0);
        partition.appendAsLeader(batch(10), ACKS_ONE, 0);
        partition.updateFollowerFetchState(FOLLOWER_A, 10, 5_000); // caught up at 5000
        partition.appendAsLeader(batch(10), ACKS_ONE, 5_001);
        partition.updateFollowerFetchState(FOLLOWER_A, 20, 9_000); // caught up at 9000
        for (long nowMs = 9_100; nowMs < 40_000; nowMs += 4_000) {
            // Producers keep the leader ahead of every fetch, but each fetch reaches what the previous one saw.
            partition.appendAsLeader(batch(1), ACKS_ONE, nowMs);
            partition.updateFollowerFetchState(FOLLOWER_A, partition.logEndOffset() - 1, nowMs + 1);
        }
        assertEquals(Optional.empty(), partition.maybeShrinkIsr(40_000, LAG_MS));
    }

    @Test
    void anIdleCaughtUpFollowerStaysInTheIsr() {
        Partition partition = partition(LEADER);
        partition.makeLeader(registration(List.of(LEADER, FOLLOWER_A), 0, 0), 0);
        partition.appendAsLeader(batch(3), ACKS_ONE, 0);
        partition.updateFollowerFetchState(FOLLOWER_A, 3, 1);
        assertEquals(Optional.empty(), partition.maybeShrinkIsr(10 * LAG_MS, LAG_MS), "nothing new to fetch");
        partition.appendAsLeader(batch(1), ACKS_ONE, 10 * LAG_MS);
        assertTrue(partition.maybeShrinkIsr(10 * LAG_MS + 1, LAG_MS).isPresent(), "now it is behind, for long");
    }

    @Test
    void aFollowerWritesOnlyInTheEpochItFollowsAndTruncationLowersItsWatermark() {
        Partition partition = partition(FOLLOWER_A);
        // Data it wrote as leader of epoch 0, never fully replicated.
        partition.makeLeader(new PartitionRegistration(List.of(FOLLOWER_A, LEADER), List.of(FOLLOWER_A), FOLLOWER_A, 0,
                0), 0);
        partition.appendAsLeader(batch(4), ACKS_ONE, 0);
        partition.appendAsLeader(batch(6), ACKS_ONE, 0);
        assertEquals(10, partition.highWatermark());
        partition.makeFollower(new PartitionRegistration(List.of(FOLLOWER_A, LEADER), List.of(LEADER), LEADER, 1, 1));

        ReplicaException stale = assertThrows(ReplicaException.class, () -> partition.truncateTo(4, 0));
        assertEquals(Errors.FENCED_LEADER_EPOCH, stale.error());
        partition.truncateTo(4, 1);
        assertEquals(4, partition.logEndOffset());
        assertEquals(4, partition.highWatermark());

        partition.updateFollowerOffsets(50, 0, 1);
        assertEquals(4, partition.highWatermark(), "a follower's watermark never passes its log end");
        partition.truncateFullyAndStartAt(30, 1);
        assertEquals(30, partition.logStartOffset());
        assertEquals(30, partition.logEndOffset());
        assertEquals(30, partition.highWatermark());
    }

    @Test
    void aLeaderTellsAFollowerWhereItsLastFetchedEpochEnded() {
        Partition partition = partition(LEADER);
        partition.makeLeader(registration(List.of(LEADER, FOLLOWER_A), 3, 0), 0);
        partition.appendAsLeader(batch(8), ACKS_ONE, 0);
        partition.makeLeader(registration(List.of(LEADER, FOLLOWER_A), 5, 1), 0);
        partition.appendAsLeader(batch(4), ACKS_ONE, 0);

        // The follower wrote epoch 4 past offset 8 as a leader the others never followed.
        PartitionRead read = partition.read(11, 5, 4, 1024, true, FetchIsolation.LOG_END, true);
        assertEquals(Errors.NONE, read.error());
        assertEquals(Optional.of(new EpochEndOffset(3, 8)), read.divergingEpoch());
        assertEquals(0, read.sizeBytes());
        // With the same history it just gets records.
        PartitionRead agreeing = partition.read(8, 5, 3, 1024, true, FetchIsolation.LOG_END, true);
        assertEquals(Optional.empty(), agreeing.divergingEpoch());
        assertTrue(agreeing.sizeBytes() > 0);
        // Beyond the leader's end without epochs to compare: out of range, with offsets to recover from.
        PartitionRead beyond = partition.read(40, 5, -1, 1024, true, FetchIsolation.LOG_END, true);
        assertEquals(Errors.OFFSET_OUT_OF_RANGE, beyond.error());
        assertEquals(0, beyond.logStartOffset());
    }
}
