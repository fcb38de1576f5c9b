package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.bytes;
import static io.kraft.storage.log.TestBatches.concat;
import static io.kraft.storage.log.TestBatches.followerBatch;
import static io.kraft.storage.log.TestBatches.idempotent;
import static io.kraft.storage.log.TestBatches.readAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.log.producer.BatchMetadata;
import io.kraft.storage.log.producer.DuplicateSequenceException;
import io.kraft.storage.log.producer.InvalidProducerEpochException;
import io.kraft.storage.log.producer.OutOfOrderSequenceException;
import io.kraft.storage.log.producer.ProducerStateEntry;
import io.kraft.storage.log.producer.ProducerStateException;
import io.kraft.storage.log.producer.ProducerStateManager;
import io.kraft.storage.log.producer.UnknownProducerIdException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Idempotent producer state on the leader append path (KIP-98, KIP-360) and how the log keeps it. */
class ProducerStateLogTest {
    private static final long PID = 4_000L;
    private static final short EPOCH = 3;
    private static final long NOW = 1_000_000L;

    @TempDir
    Path dir;

    private static LogConfig.Builder config() {
        return LogConfig.builder().segmentBytes(4096).indexIntervalBytes(100).maxIndexBytes(4096).fileDeleteDelayMs(0);
    }

    /** Appends {@code batches} consecutive 3-record batches from sequence 0; returns each append's answer. */
    private static List<AppendInfo> appendBatches(Log log, long producerId, short epoch, int batches) {
        List<AppendInfo> answers = new ArrayList<>();
        for (int i = 0; i < batches; i++) {
            answers.add(log.append(idempotent(producerId, epoch, 3 * i, 3, NOW + i), 0, NOW));
        }
        return answers;
    }

    /** Asserts an append is refused with {@code type} and the log is byte-for-byte unchanged. */
    private static <T extends ProducerStateException> T assertRefused(Class<T> type, Log log, ByteBuffer records)
            throws Exception {
        long end = log.logEndOffset();
        byte[] before = bytes(readAll(log));
        T refused = assertThrows(type, () -> log.append(records, 0, NOW));
        assertEquals(end, log.logEndOffset(), "nothing written");
        assertArrayEquals(before, bytes(readAll(log)), "log bytes unchanged");
        return refused;
    }

    @Test
    void aRetryOfEachOfTheLastFiveBatchesReturnsItsOriginalOffsetsAndWritesNothing() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            List<AppendInfo> originals = appendBatches(log, PID, EPOCH, 7);
            long end = log.logEndOffset();
            byte[] content = bytes(readAll(log));
            for (int i = 2; i < 7; i++) {
                AppendInfo retry = log.append(idempotent(PID, EPOCH, 3 * i, 3, NOW + i), 0, NOW + 50);
                assertTrue(retry.duplicate(), "batch " + i + " is a duplicate");
                assertEquals(originals.get(i).firstOffset(), retry.firstOffset());
                assertEquals(originals.get(i).lastOffset(), retry.lastOffset());
                assertEquals(NOW + i, retry.maxTimestampMs());
                assertEquals(0, retry.sizeBytes());
                assertEquals(0, retry.batchCount());
                assertEquals(-1, retry.logAppendTimeMs());
                assertFalse(originals.get(i).duplicate());
            }
            assertEquals(end, log.logEndOffset());
            assertArrayEquals(content, bytes(readAll(log)));
        }
    }

    @Test
    void theSixthOldestBatchIsNoLongerCachedAndIsAnsweredAsADuplicateSequence() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            appendBatches(log, PID, EPOCH, 6);
            DuplicateSequenceException refused = assertRefused(DuplicateSequenceException.class, log,
                    idempotent(PID, EPOCH, 0, 3, NOW));
            assertTrue(refused.getMessage().contains("sequences 0..2"), refused.getMessage());
            assertTrue(refused.getMessage().contains("(from 3)"), refused.getMessage());
            assertEquals(PID, refused.producerId());
        }
    }

    @Test
    void aGapInSequencesIsRefusedNamingExpectedAndGot() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            appendBatches(log, PID, EPOCH, 2);
            OutOfOrderSequenceException refused = assertRefused(OutOfOrderSequenceException.class, log,
                    idempotent(PID, EPOCH, 7, 3, NOW));
            assertTrue(refused.getMessage().contains("sent sequence 7"), refused.getMessage());
            assertTrue(refused.getMessage().contains("expected 6"), refused.getMessage());
            assertEquals(6, log.append(idempotent(PID, EPOCH, 6, 3, NOW), 0, NOW).firstOffset(), "the right one fits");
        }
    }

    @Test
    void aNewEpochStartsAtSequenceZeroAndFencesTheOldOne() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            appendBatches(log, PID, EPOCH, 3);
            assertRefused(OutOfOrderSequenceException.class, log, idempotent(PID, (short) (EPOCH + 1), 9, 3, NOW));
            AppendInfo bumped = log.append(idempotent(PID, (short) (EPOCH + 1), 0, 2, NOW), 0, NOW);
            assertFalse(bumped.duplicate());
            ProducerStateEntry state = log.producerState(PID).orElseThrow();
            assertEquals(EPOCH + 1, state.producerEpoch());
            assertEquals(1, state.lastSequence());
            assertEquals(1, state.batches().size(), "the old epoch's batches are forgotten");
            InvalidProducerEpochException fenced = assertRefused(InvalidProducerEpochException.class, log,
                    idempotent(PID, EPOCH, 9, 3, NOW));
            assertTrue(fenced.getMessage().contains("epoch " + EPOCH), fenced.getMessage());
            assertRefused(InvalidProducerEpochException.class, log, idempotent(PID, EPOCH, 6, 3, NOW));
        }
    }

    @Test
    void sequencesWrapFromIntegerMaxToZero() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            log.append(idempotent(PID, EPOCH, 0, 1, NOW), 0, NOW);
            // A follower copy puts the producer just below the wrap, as a long-lived producer would be.
            log.appendAsFollower(TestBatchesIdempotent.at(log.logEndOffset(), PID, EPOCH, Integer.MAX_VALUE - 2, 2), NOW);
            assertEquals(Integer.MAX_VALUE - 1, log.producerState(PID).orElseThrow().lastSequence());
            AppendInfo wrapping = log.append(idempotent(PID, EPOCH, Integer.MAX_VALUE, 3, NOW), 0, NOW);
            assertEquals(1, log.producerState(PID).orElseThrow().lastSequence(), "MAX, 0, 1");
            assertEquals(wrapping.lastOffset() + 1, log.append(idempotent(PID, EPOCH, 2, 1, NOW), 0, NOW).firstOffset());
            assertRefused(OutOfOrderSequenceException.class, log, idempotent(PID, EPOCH, 1, 1, NOW));
            assertTrue(log.append(idempotent(PID, EPOCH, Integer.MAX_VALUE, 3, NOW), 0, NOW).duplicate());
        }
    }

    @Test
    void anUnknownProducerMustStartAtSequenceZero() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            log.append(batch(2, NOW), 0, NOW);
            UnknownProducerIdException unknown = assertRefused(UnknownProducerIdException.class, log,
                    idempotent(PID, EPOCH, 5, 1, NOW));
            assertTrue(unknown.getMessage().contains("sequence 5"), unknown.getMessage());
            log.append(idempotent(PID, EPOCH, 0, 1, NOW), 0, NOW);
            assertEquals(0, log.producerState(PID).orElseThrow().lastSequence());
        }
    }

    @Test
    void producersIdleForTheExpirationAreForgottenByTheRetentionPass() throws Exception {
        try (Log log = Log.open(dir, config().producerIdExpirationMs(10_000).retentionMs(-1).build())) {
            log.append(idempotent(PID, EPOCH, 0, 2, NOW), 0, NOW);
            log.append(idempotent(PID + 1, EPOCH, 0, 2, NOW + 5_000), 0, NOW + 5_000);
            log.deleteExpiredSegments(NOW + 9_999);
            assertEquals(2, log.producerState().size());
            log.deleteExpiredSegments(NOW + 10_000);
            assertEquals(List.of(PID + 1), List.copyOf(log.producerState().keySet()));
            assertRefused(UnknownProducerIdException.class, log, idempotent(PID, EPOCH, 2, 1, NOW));
            assertEquals(1, log.removeExpiredProducers(NOW + 15_000));
            assertTrue(log.producerState().isEmpty());
        }
    }

    @Test
    void aMultiBatchAppendIsCheckedWholeBeforeAnythingIsWritten() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            appendBatches(log, PID, EPOCH, 1);
            ByteBuffer goodThenGap = concat(idempotent(PID, EPOCH, 3, 2, NOW), idempotent(PID, EPOCH, 9, 2, NOW));
            assertRefused(OutOfOrderSequenceException.class, log, goodThenGap);
            ByteBuffer twoInOrder = concat(idempotent(PID, EPOCH, 3, 2, NOW), idempotent(PID, EPOCH, 5, 2, NOW),
                    batch(1, NOW));
            AppendInfo written = log.append(twoInOrder, 0, NOW);
            assertEquals(3, written.firstOffset());
            assertEquals(7, written.lastOffset());
            assertEquals(6, log.producerState(PID).orElseThrow().lastSequence());
            AppendInfo retried = log.append(concat(idempotent(PID, EPOCH, 3, 2, NOW), idempotent(PID, EPOCH, 5, 2, NOW)),
                    0, NOW);
            assertTrue(retried.duplicate());
            assertEquals(3, retried.firstOffset());
            assertEquals(6, retried.lastOffset());
            DuplicateSequenceException mixed = assertRefused(DuplicateSequenceException.class, log,
                    concat(idempotent(PID, EPOCH, 5, 2, NOW), idempotent(PID, EPOCH, 7, 2, NOW)));
            assertTrue(mixed.getMessage().contains("1 batches already written"), mixed.getMessage());
        }
    }

    @Test
    void aDuplicateOnALogAppendTimeTopicAnswersTheOriginalAppendTime() throws Exception {
        try (Log log = Log.open(dir, config().logAppendTime(true).build())) {
            AppendInfo original = log.append(idempotent(PID, EPOCH, 0, 2, 5), 0, NOW);
            AppendInfo retry = log.append(idempotent(PID, EPOCH, 0, 2, 5), 0, NOW + 777);
            assertTrue(retry.duplicate());
            assertEquals(NOW, original.logAppendTimeMs());
            assertEquals(NOW, retry.logAppendTimeMs());
            assertEquals(NOW, retry.maxTimestampMs());
        }
    }

    @Test
    void followerAppendsUpdateTheStateWithoutValidation() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            log.appendAsFollower(TestBatchesIdempotent.at(0, PID, EPOCH, 40, 3), NOW);
            log.appendAsFollower(TestBatchesIdempotent.at(3, PID, (short) (EPOCH - 1), 7, 2), NOW);
            ProducerStateEntry state = log.producerState(PID).orElseThrow();
            assertEquals(EPOCH - 1, state.producerEpoch(), "the log order is the truth on a follower");
            assertEquals(8, state.lastSequence());
            assertEquals(new BatchMetadata(7, 8, 3, 4, NOW), state.batches().get(0));
            AppendInfo retry = log.append(TestBatchesIdempotent.at(0, PID, (short) (EPOCH - 1), 7, 2), 0, NOW);
            assertTrue(retry.duplicate(), "a follower that becomes leader detects retries");
            assertEquals(3, retry.firstOffset());
        }
    }

    @Test
    void theViewShowsEpochLastSequenceAndLastTimestamp() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            log.append(idempotent(PID, EPOCH, 0, 4, NOW + 10), 0, NOW);
            log.append(idempotent(PID, EPOCH, 4, 1, NOW + 20), 0, NOW);
            log.append(batch(2, NOW), 0, NOW);
            ProducerStateEntry state = log.producerState().get(PID);
            assertEquals(PID, state.producerId());
            assertEquals(EPOCH, state.producerEpoch());
            assertEquals(4, state.lastSequence());
            assertEquals(NOW + 20, state.lastTimestampMs());
            assertEquals(4, state.lastOffset());
            assertEquals(List.of(new BatchMetadata(0, 3, 0, 3, NOW + 10), new BatchMetadata(4, 4, 4, 4, NOW + 20)),
                    state.batches());
            assertEquals(1, log.producerState().size(), "batches without a producer id are not tracked");
            assertThrows(UnsupportedOperationException.class, () -> log.producerState().clear());
        }
    }

    @Test
    void stateOutlivesDeletedRecordsButSnapshotsOfRemovedSegmentsGo() throws Exception {
        try (Log log = Log.open(dir, config().segmentBytes(400).build())) {
            appendBatches(log, PID, EPOCH, 2);
            for (int i = 0; i < 12; i++) {
                log.append(batch(3, NOW), 0, NOW);
            }
            assertTrue(log.numberOfSegments() > 3);
            List<Long> snapshotsBefore = new ProducerStateManager(dir).snapshotOffsets();
            assertEquals(log.segments().stream().skip(1).map(LogSegment::baseOffset).toList(), snapshotsBefore,
                    "one snapshot per roll, at the new segment's base offset");
            long start = log.deleteRecordsBefore(log.logEndOffset() - 1);
            long firstBase = log.segments().get(0).baseOffset();
            assertTrue(new ProducerStateManager(dir).snapshotOffsets().stream().allMatch(o -> o >= firstBase));
            assertTrue(new ProducerStateManager(dir).snapshotOffsets().contains(firstBase));
            assertTrue(start > 6);
            assertEquals(5, log.producerState(PID).orElseThrow().lastSequence(), "KIP-360: kept after deletion");
            assertTrue(log.append(idempotent(PID, EPOCH, 3, 3, NOW + 1), 0, NOW).duplicate());
        }
        try (Log reopened = Log.open(dir, config().segmentBytes(400).build())) {
            assertEquals(5, reopened.producerState(PID).orElseThrow().lastSequence(), "and after a reopen");
        }
    }

    @Test
    void truncationRebuildsTheStateOfWhatRemains() throws Exception {
        try (Log log = Log.open(dir, config().segmentBytes(300).build())) {
            List<AppendInfo> written = appendBatches(log, PID, EPOCH, 8);
            assertTrue(log.numberOfSegments() > 2);
            log.truncateTo(written.get(5).firstOffset());
            ProducerStateEntry state = log.producerState(PID).orElseThrow();
            assertEquals(14, state.lastSequence());
            assertEquals(written.get(4).lastOffset(), state.lastOffset());
            assertTrue(new ProducerStateManager(dir).snapshotOffsets().stream().allMatch(o -> o <= log.logEndOffset()));
            assertFalse(log.append(idempotent(PID, EPOCH, 15, 3, NOW), 0, NOW).duplicate(), "batch 5 is new again");
            log.truncateFullyAndStartAt(100);
            assertTrue(log.producerState().isEmpty());
            assertEquals(List.of(), new ProducerStateManager(dir).snapshotOffsets());
        }
    }

    @Test
    void nonIdempotentBatchesAreNeverChecked() throws Exception {
        try (Log log = Log.open(dir, config().build())) {
            ByteBuffer plain = batch(3, NOW);
            log.append(plain.duplicate(), 0, NOW);
            log.append(TestBatches.copy(plain), 0, NOW);
            assertEquals(6, log.logEndOffset());
            log.appendAsFollower(followerBatch(6, 2, NOW, 0), NOW);
            assertTrue(log.producerState().isEmpty());
            assertFalse(Files.exists(ProducerStateManager.snapshotFile(dir, 0)));
        }
    }

    /** Idempotent batches with explicit offsets, as a follower copies them from its leader. */
    static final class TestBatchesIdempotent {
        private TestBatchesIdempotent() {
        }

        static ByteBuffer at(long baseOffset, long producerId, short epoch, int baseSequence, int count) {
            SimpleRecord[] records = new SimpleRecord[count];
            for (int i = 0; i < count; i++) {
                records[i] = new SimpleRecord(NOW, ("f" + i).getBytes(), ("v" + i).getBytes());
            }
            return TestBatches.copy(MemoryRecords.withIdempotentRecords((byte) 2, baseOffset, Compression.NONE,
                    producerId, epoch, baseSequence, 0, records).buffer());
        }
    }
}
