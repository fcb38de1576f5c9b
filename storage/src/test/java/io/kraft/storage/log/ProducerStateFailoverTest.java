package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.idempotent;
import static io.kraft.storage.log.TestBatches.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.producer.BatchMetadata;
import io.kraft.storage.log.producer.DuplicateSequenceException;
import io.kraft.storage.log.producer.OutOfOrderSequenceException;
import io.kraft.storage.log.producer.ProducerStateEntry;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower promoted to leader answers the producer's retries as its old leader would have: the last five batches
 * of each producer with their original offsets, older ones with DUPLICATE_SEQUENCE_NUMBER, never
 * OUT_OF_ORDER_SEQUENCE_NUMBER for records it holds (which the Java producer retries until its delivery timeout).
 */
class ProducerStateFailoverTest {
    private static final long PID = 77L;
    private static final short EPOCH = 0;
    private static final long NOW = 1_000_000L;
    /** The chaos run's batches: 16 records each, the retried one starting at 8737. */
    private static final int BATCH = 16;
    private static final int FIRST_SEQUENCE = 8737 - 4 * BATCH;
    private static final int BATCHES = 9;

    @TempDir
    Path leaderDir;
    @TempDir
    Path followerDir;

    private static LogConfig config() {
        // Small segments: the follower rolls (and snapshots its producer state) in the middle of the batches.
        return LogConfig.builder().segmentBytes(2_000).indexIntervalBytes(100).maxIndexBytes(4096)
                .fileDeleteDelayMs(0).build();
    }

    private static ByteBuffer batch(int index) {
        return idempotent(PID, EPOCH, FIRST_SEQUENCE + index * BATCH, BATCH, NOW + index);
    }

    /** The leader's appends, then the follower fetches them in pieces of at most {@code fetchBytes}. */
    private static List<AppendInfo> replicate(Log leader, Log follower, int fetchBytes) throws Exception {
        // The producer's history before these batches, as the leader itself once replicated it.
        leader.appendAsFollower(ProducerStateLogTest.TestBatchesIdempotent.at(0, PID, EPOCH, FIRST_SEQUENCE - 1, 1),
                NOW);
        List<AppendInfo> written = new ArrayList<>();
        for (int i = 0; i < BATCHES; i++) {
            written.add(leader.append(batch(i), 5, NOW + i));
        }
        while (follower.logEndOffset() < leader.logEndOffset()) {
            ByteBuffer fetched = leader.read(follower.logEndOffset(), fetchBytes, true).records().readFully();
            List<MutableRecordBatch> whole = parse(fetched);
            ByteBuffer records = fetched.duplicate();
            records.limit(records.position() + whole.stream().mapToInt(MutableRecordBatch::sizeInBytes).sum());
            follower.appendAsFollower(records, NOW);
        }
        return written;
    }

    private static void assertAnswersLikeTheOldLeader(Log promoted, List<AppendInfo> written) {
        ProducerStateEntry state = promoted.producerState(PID).orElseThrow();
        assertEquals(ProducerStateEntry.MAX_CACHED_BATCHES, state.batches().size());
        for (int i = BATCHES - ProducerStateEntry.MAX_CACHED_BATCHES; i < BATCHES; i++) {
            BatchMetadata kept = state.batches().get(i - BATCHES + ProducerStateEntry.MAX_CACHED_BATCHES);
            assertEquals(FIRST_SEQUENCE + i * BATCH, kept.firstSequence(), "the old leader's batch boundaries");
            assertEquals(written.get(i).firstOffset(), kept.firstOffset());
            AppendInfo retry = promoted.append(batch(i), 6, NOW + 100);
            assertTrue(retry.duplicate(), "batch " + i + " is answered as a duplicate");
            assertEquals(written.get(i).firstOffset(), retry.firstOffset());
            assertEquals(written.get(i).lastOffset(), retry.lastOffset());
        }
        long end = promoted.logEndOffset();
        for (int i = 0; i < BATCHES - ProducerStateEntry.MAX_CACHED_BATCHES; i++) {
            int index = i;
            DuplicateSequenceException older = assertThrows(DuplicateSequenceException.class,
                    () -> promoted.append(batch(index), 6, NOW + 100));
            assertEquals(Errors.DUPLICATE_SEQUENCE_NUMBER, older.error(), older.getMessage());
        }
        assertEquals(end, promoted.logEndOffset(), "no retry wrote anything");
    }

    @Test
    void aPromotedFollowerRecognisesRetriesOfTheBatchesItReplicated() throws Exception {
        for (int fetchBytes : new int[] {1, 300, 1 << 20}) {
            Path leaderPath = leaderDir.resolve("f" + fetchBytes);
            Path followerPath = followerDir.resolve("f" + fetchBytes);
            try (Log leader = Log.open(leaderPath, config()); Log follower = Log.open(followerPath, config())) {
                List<AppendInfo> written = replicate(leader, follower, fetchBytes);
                assertTrue(follower.numberOfSegments() > 1, "the follower rolled");
                assertAnswersLikeTheOldLeader(follower, written);
                assertAnswersLikeTheOldLeader(leader, written);
            }
        }
    }

    @Test
    void aPromotedFollowerKeepsThemAcrossARestartAndATruncationToItsEnd() throws Exception {
        List<AppendInfo> written;
        try (Log leader = Log.open(leaderDir, config()); Log follower = Log.open(followerDir, config())) {
            written = replicate(leader, follower, 300);
            assertFalse(follower.truncateTo(follower.logEndOffset()), "a new leader's truncation to its end");
            assertAnswersLikeTheOldLeader(follower, written);
        }
        try (Log reopened = Log.open(followerDir, config())) {
            assertAnswersLikeTheOldLeader(reopened, written);
        }
    }

    @Test
    void aTruncatedFollowerRebuildsTheBoundariesOfWhatRemains() throws Exception {
        try (Log leader = Log.open(leaderDir, config()); Log follower = Log.open(followerDir, config())) {
            List<AppendInfo> written = replicate(leader, follower, 300);
            follower.truncateTo(written.get(BATCHES - 1).firstOffset());
            ProducerStateEntry state = follower.producerState(PID).orElseThrow();
            assertEquals(FIRST_SEQUENCE + (BATCHES - 1) * BATCH - 1, state.lastSequence());
            assertEquals(written.get(BATCHES - 2).firstOffset(), state.batches().get(4).firstOffset());
            assertTrue(follower.append(batch(BATCHES - 2), 6, NOW).duplicate());
            assertFalse(follower.append(batch(BATCHES - 1), 6, NOW).duplicate(), "the cut batch is new again");
        }
    }

    @Test
    void aRangeOverlappingTheLastWrittenIsStillOutOfOrder() throws Exception {
        try (Log leader = Log.open(leaderDir, config()); Log follower = Log.open(followerDir, config())) {
            replicate(leader, follower, 300);
            int last = follower.producerState(PID).orElseThrow().lastSequence();
            assertThrows(OutOfOrderSequenceException.class,
                    () -> follower.append(idempotent(PID, EPOCH, last - 2, 5, NOW), 6, NOW));
        }
    }
}
