package io.kraft.broker.fetch.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.LeaderEpochCache;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a follower truncates for a leader's diverging epoch, with the follower's own leader epoch cache. */
class TruncationTest {
    @TempDir
    Path dir;

    /** A follower whose log holds the epochs (epoch, start) given in pairs. */
    private LeaderEpochCache follower(int... epochStarts) {
        LeaderEpochCache cache = new LeaderEpochCache(dir);
        for (int i = 0; i < epochStarts.length; i += 2) {
            cache.assign(epochStarts[i], epochStarts[i + 1]);
        }
        return cache;
    }

    private static long truncation(LeaderEpochCache cache, long logEnd, long highWatermark, int leaderEpoch,
                                   long leaderEnd) {
        return Truncation.offsetFor(new EpochEndOffset(leaderEpoch, leaderEnd), e -> cache.endOffsetFor(e, logEnd),
                logEnd, highWatermark);
    }

    @Test
    void aFollowerWithALongerTailOfTheLeadersEpochTruncatesToWhereTheLeadersEpochEnded() {
        // Follower: epoch 1 from 10, epoch 3 from 20 (a term the leader never saw), log end 30.
        LeaderEpochCache cache = follower(0, 0, 1, 10, 3, 20);
        assertEquals(15, truncation(cache, 30, 12, 1, 15));
    }

    @Test
    void aFollowerWhoseEpochEndsBeforeTheLeadersKeepsItsOwnEnd() {
        // The leader's epoch 1 ran to 25, the follower's copy of it only to 20 (then its epoch 3): the
        // common part ends at 20.
        LeaderEpochCache cache = follower(0, 0, 1, 10, 3, 20);
        assertEquals(20, truncation(cache, 30, 12, 1, 25));
    }

    @Test
    void aFollowerWithoutTheLeadersEpochTruncatesToTheEndOfItsLargestEpochBelowIt() {
        // Follower: epochs 0 and 2; the leader answers for its epoch 1, which the follower never had.
        LeaderEpochCache cache = follower(0, 0, 2, 10);
        assertEquals(10, truncation(cache, 25, 5, 1, 18));
        // ...and never truncates below where the leader says the epoch ended.
        assertEquals(8, truncation(cache, 25, 5, 1, 8));
    }

    @Test
    void truncationNeverGoesAboveTheLogEnd() {
        LeaderEpochCache cache = follower(4, 0);
        assertEquals(7, truncation(cache, 7, 7, 4, 50));
    }

    @Test
    void aLeaderThatKnowsNoEpochLeavesOnlyTheCommittedPart() {
        LeaderEpochCache cache = follower(2, 0);
        assertEquals(6, Truncation.offsetFor(EpochEndOffset.UNDEFINED, e -> cache.endOffsetFor(e, 9), 9, 6));
    }

    @Test
    void repeatedRoundsConvergeOnTheCommonPrefix() throws IOException {
        // Leader epochs: 0@0, 1@10, 4@30 (log end 40). Follower: 0@0, 1@10, 2@20, 3@25 (log end 35): it wrote
        // epochs 2 and 3 as a leader whose records were never committed.
        LeaderEpochCache leader = new LeaderEpochCache(Files.createDirectories(dir.resolve("leader")));
        leader.assign(0, 0);
        leader.assign(1, 10);
        leader.assign(4, 30);
        LeaderEpochCache cache = follower(0, 0, 1, 10, 2, 20, 3, 25);
        long logEnd = 35;
        for (int round = 0; round < 10; round++) {
            int lastFetchedEpoch = cache.latestEpoch();
            EpochEndOffset answer = leader.endOffsetFor(lastFetchedEpoch, 40);
            if (answer.epoch() == lastFetchedEpoch && answer.endOffset() >= logEnd) {
                break; // the leader finds no divergence
            }
            long end = logEnd;
            logEnd = Truncation.offsetFor(answer, e -> cache.endOffsetFor(e, end), logEnd, 0);
            cache.truncateFromEnd(logEnd);
        }
        assertEquals(20, logEnd, "epoch 1 ended at 20 on the follower, at 30 on the leader: 20 is common");
        assertEquals(1, cache.latestEpoch());
    }

    @Test
    void trailingPartialBatchesAreCutOff() {
        ByteBuffer records = ByteBuffer.allocate(61 + 10 + 40);
        records.putLong(0, 0L).putInt(8, 61 - 12); // a whole 61-byte batch
        records.putLong(61, 1L).putInt(69, 500); // a batch claiming more bytes than arrived
        assertEquals(61, ReplicaFetcherThread.wholeBatches(records).remaining());
        assertEquals(0, ReplicaFetcherThread.wholeBatches(null).remaining());
    }
}
