package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.bytes;
import static io.kraft.storage.log.TestBatches.followerBatch;
import static io.kraft.storage.log.TestBatches.offsets;
import static io.kraft.storage.log.TestBatches.parse;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTest {
    @TempDir
    Path dir;

    private static LogConfig.Builder small() {
        return LogConfig.builder().segmentBytes(1024).indexIntervalBytes(100).maxIndexBytes(1024).fileDeleteDelayMs(0);
    }

    private static long[] range(long from, long toExclusive) {
        return LongStream.range(from, toExclusive).toArray();
    }

    private static long[] toArray(List<Long> list) {
        return list.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void segmentsRolledByAppendsAreFlushedOnTheGivenExecutor() throws Exception {
        java.util.ArrayDeque<Runnable> queued = new java.util.ArrayDeque<>();
        try (Log log = Log.open(dir, small().build(), 0, 0, false, queued::add)) {
            int perSegment = 1024 / batch(4, 0).remaining();
            for (int i = 0; i < perSegment + 1; i++) {
                log.append(batch(4, i), 0, 1);
            }
            assertEquals(2, log.numberOfSegments());
            assertEquals(0, log.recoveryPoint(), "the appender did not wait for the fsync");
            assertEquals(1, queued.size());
            queued.poll().run();
            assertEquals(4L * perSegment, log.recoveryPoint(), "the background flush moved the recovery point");
            log.roll();
            assertEquals(log.logEndOffset(), log.recoveryPoint(), "an explicit roll flushes before it returns");
            assertTrue(queued.isEmpty());
        }
    }

    @Test
    void leaderAppendAssignsOffsetsAndEpochInPlace() throws Exception {
        try (Log log = Log.open(dir, small().build())) {
            ByteBuffer first = batch(3, 1000);
            AppendInfo info = log.append(first, 4, 2000);
            assertEquals(new AppendInfo(0, 2, 1002, 0, -1, first.remaining(), 1, false), info);
            ByteBuffer two = TestBatches.concat(batch(2, 1100), batch(5, 900));
            info = log.append(two, 4, 2001);
            assertEquals(3, info.firstOffset());
            assertEquals(9, info.lastOffset());
            assertEquals(1101, info.maxTimestampMs());
            assertEquals(3, info.offsetOfMaxTimestamp());
            assertEquals(2, info.batchCount());
            assertEquals(10, log.logEndOffset());

            ByteBuffer all = log.read(0, Integer.MAX_VALUE, false).records().readFully();
            assertArrayEquals(range(0, 10), toArray(offsets(all)));
            for (MutableRecordBatch batch : parse(all)) {
                assertEquals(4, batch.partitionLeaderEpoch());
                assertEquals(TimestampType.CREATE_TIME, batch.timestampType());
            }
            assertEquals(List.of(new EpochEntry(4, 0)), log.leaderEpochCache().entries());
            log.append(batch(1, 1), 6, 2002);
            assertEquals(List.of(new EpochEntry(4, 0), new EpochEntry(6, 10)), log.leaderEpochCache().entries());
        }
    }

    @Test
    void logAppendTimeStampsTheBatchAndKeepsItsCrcValid() throws Exception {
        try (Log log = Log.open(dir, small().logAppendTime(true).build())) {
            AppendInfo info = log.append(batch(3, 10), 0, 777_000);
            assertEquals(777_000, info.logAppendTimeMs());
            assertEquals(777_000, info.maxTimestampMs());
            MutableRecordBatch batch = parse(log.read(0, 1000, true).records().readFully()).get(0);
            batch.ensureValid();
            assertEquals(TimestampType.LOG_APPEND_TIME, batch.timestampType());
            assertEquals(777_000, batch.maxTimestamp());
        }
    }

    @Test
    void compressedBatchesOfEveryCodecPassThroughUnchanged() throws Exception {
        Random random = new Random(7);
        List<Compression> codecs = List.of(Compression.NONE, Compression.gzip().build(), Compression.snappy().build(),
                Compression.lz4().build(), Compression.zstd().build());
        try (Log log = Log.open(dir, LogConfig.defaults())) {
            long expectedNext = 0;
            for (Compression codec : codecs) {
                ByteBuffer batch = batch(20, 100, 50, codec, random);
                log.append(batch, 1, 1);
                expectedNext += 20;
                assertEquals(expectedNext, log.logEndOffset());
            }
            List<MutableRecordBatch> batches = parse(log.read(0, Integer.MAX_VALUE, false).records().readFully());
            assertEquals(5, batches.size());
            for (int i = 0; i < 5; i++) {
                assertEquals(codecs.get(i).type(), batches.get(i).compressionType());
            }
            assertArrayEquals(range(0, 100), toArray(offsets(log.read(0, Integer.MAX_VALUE, false).records().readFully())));
        }
    }

    @Test
    void rollsOnSizeAndReadsStayWithinOneSegment() throws Exception {
        try (Log log = Log.open(dir, small().build())) {
            int batchSize = batch(4, 0).remaining();
            int perSegment = 1024 / batchSize;
            for (int i = 0; i < 3 * perSegment; i++) {
                log.append(batch(4, i), 0, 1);
            }
            assertEquals(3, log.numberOfSegments());
            assertEquals(List.of(0L, 4L * perSegment, 8L * perSegment),
                    log.segments().stream().map(LogSegment::baseOffset).toList());
            assertTrue(Files.exists(dir.resolve(String.format("%020d.log", 4L * perSegment))));
            assertEquals(8L * perSegment, log.recoveryPoint(), "rolled segments are flushed");
            LogReadResult read = log.read(1, Integer.MAX_VALUE, false);
            assertEquals(perSegment * batchSize, read.records().sizeBytes(), "stops at the segment end");
            assertArrayEquals(range(0, 12L * perSegment), toArray(offsets(TestBatches.readAll(log))));
        }
    }

    @Test
    void rollsOnAgeFromTheFirstAppend() {
        try (Log log = Log.open(dir, small().segmentMs(1000).build())) {
            log.append(batch(1, 0), 0, 10_000);
            log.append(batch(1, 0), 0, 10_900);
            log.append(batch(1, 0), 0, 11_000);
            assertEquals(1, log.numberOfSegments());
            log.append(batch(1, 0), 0, 11_001);
            assertEquals(2, log.numberOfSegments());
            assertEquals(3, log.activeSegment().baseOffset());
        }
    }

    @Test
    void rollsWhenTheIndexIsFull() {
        try (Log log = Log.open(dir, small().segmentBytes(1 << 20).indexIntervalBytes(0)
                .maxIndexBytes(LogConfig.MIN_INDEX_BYTES * 2).build())) {
            for (int i = 0; i < 20; i++) {
                log.append(batch(1, 100 + i), 0, 1);
            }
            assertTrue(log.numberOfSegments() >= 5, "segments: " + log.numberOfSegments());
            for (LogSegment segment : log.segments()) {
                assertTrue(segment.timeIndex().entries() <= segment.timeIndex().maxEntries());
            }
        }
    }

    @Test
    void readRejectsOffsetsOutsideTheLogAndIsEmptyAtTheEnd() throws Exception {
        try (Log log = Log.open(dir, small().build())) {
            log.append(batch(5, 0), 0, 1);
            assertTrue(log.read(5, 100, true).records().isEmpty());
            assertThrows(OffsetOutOfRangeException.class, () -> log.read(6, 100, true));
            assertThrows(OffsetOutOfRangeException.class, () -> log.read(-1, 100, true));
            log.deleteRecordsBefore(3);
            assertThrows(OffsetOutOfRangeException.class, () -> log.read(2, 100, true));
            LogReadResult read = log.read(3, 0, false);
            assertEquals(0, read.records().sizeBytes(), "maxBytes 0 without minOneBatch");
            assertEquals(3, read.logStartOffset());
            assertEquals(5, read.logEndOffset());
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L), offsets(log.read(3, 0, true).records().readFully()),
                    "the whole batch holding offset 3");
        }
    }

    @Test
    void findsOffsetsByTimestampAndTheMaxTimestamp() {
        try (Log log = Log.open(dir, small().build())) {
            log.append(batch(2, 100), 0, 1);   // offsets 0-1, max 101
            log.append(batch(2, 300), 0, 1);   // 2-3, max 301
            log.roll();
            log.append(batch(2, 200), 0, 1);   // 4-5, max 201
            log.append(batch(2, 500), 0, 1);   // 6-7, max 501
            log.append(batch(2, 400), 0, 1);   // 8-9, max 401
            assertEquals(Optional.of(new TimestampOffset(101, 0)), log.offsetForTimestamp(0));
            assertEquals(Optional.of(new TimestampOffset(301, 2)), log.offsetForTimestamp(150));
            assertEquals(Optional.of(new TimestampOffset(501, 6)), log.offsetForTimestamp(302));
            assertEquals(Optional.empty(), log.offsetForTimestamp(502));
            assertEquals(Optional.of(new TimestampOffset(501, 6)), log.maxTimestampOffset());
            log.deleteRecordsBefore(7);
            assertEquals(Optional.of(new TimestampOffset(501, 7)), log.offsetForTimestamp(0),
                    "never below the log start");
        }
    }

    @Test
    void retentionByTimeDeletesOldSegmentsAndRollsAnExpiredActiveOne() {
        try (Log log = Log.open(dir, small().retentionMs(1000).build())) {
            log.append(batch(2, 1000), 0, 1);
            log.roll();
            log.append(batch(2, 5000), 0, 1);
            log.roll();
            log.append(batch(2, 9000), 0, 1);
            assertEquals(0, log.deleteExpiredSegments(2001));
            assertEquals(1, log.deleteExpiredSegments(2002));
            assertEquals(2, log.logStartOffset());
            assertEquals(1, log.deleteExpiredSegments(9000), "second segment (max 5001) expired");
            assertEquals(4, log.logStartOffset());
            assertEquals(1, log.numberOfSegments());
            assertEquals(1, log.deleteExpiredSegments(20_000), "the expired active segment is rolled, then deleted");
            assertEquals(1, log.numberOfSegments());
            assertEquals(6, log.logStartOffset());
            assertEquals(6, log.logEndOffset());
            assertEquals(0, log.activeSegment().sizeBytes());
            assertEquals(0, log.deleteExpiredSegments(30_000), "an empty active segment stays");
            assertEquals(6, log.append(batch(1, 30_000), 0, 1).firstOffset());
        }
    }

    @Test
    void retentionBySizeDeletesOldestWhileOverTheLimitAndRespectsTheHighWatermark() {
        int batchSize = batch(2, 0).remaining();
        try (Log log = Log.open(dir, small().retentionBytes(2L * batchSize).retentionMs(-1).build())) {
            for (int i = 0; i < 4; i++) {
                log.append(batch(2, 0), 0, 1);
                log.roll();
            }
            log.append(batch(2, 0), 0, 1);
            assertEquals(5, log.numberOfSegments());
            assertEquals(2, log.deleteExpiredSegments(0, 5), "only segments wholly below the high watermark");
            assertEquals(4, log.logStartOffset());
            assertEquals(1, log.deleteExpiredSegments(0));
            assertEquals(6, log.logStartOffset());
            assertEquals(2, log.numberOfSegments());
            assertEquals(0, log.deleteExpiredSegments(0));
        }
    }

    @Test
    void retentionDoesNothingWithoutTheDeletePolicy() {
        try (Log log = Log.open(dir, small().retentionMs(0).delete(false).compact(true).build())) {
            log.append(batch(2, 0), 0, 1);
            log.roll();
            log.append(batch(2, 0), 0, 1);
            assertEquals(0, log.deleteExpiredSegments(1_000_000));
            assertEquals(0, log.logStartOffset());
        }
    }

    @Test
    void deletedSegmentsStayReadableUntilTheDeleteDelayPasses() throws Exception {
        try (Log log = Log.open(dir, small().retentionMs(10).fileDeleteDelayMs(500).build())) {
            log.append(batch(2, 0), 0, 1);
            LogReadResult before = log.read(0, 1000, true);
            log.roll();
            log.append(batch(2, 1000), 0, 1);
            assertEquals(1, log.deleteExpiredSegments(100));
            Path deleted = dir.resolve("00000000000000000000.log.deleted");
            assertTrue(Files.exists(deleted));
            assertEquals(List.of(0L, 1L), offsets(before.records().readFully()), "an in-flight read still works");
            assertEquals(0, log.deleteExpiredSegments(599));
            assertTrue(Files.exists(deleted));
            log.deleteExpiredSegments(600);
            assertFalse(Files.exists(deleted));
        }
    }

    @Test
    void deleteRecordsMovesTheStartAndDropsWholeSegmentsBelowIt() {
        try (Log log = Log.open(dir, small().build())) {
            for (int i = 0; i < 3; i++) {
                log.append(batch(5, 0), 2, 1);
                log.roll();
            }
            log.leaderEpochCache().assign(3, 12);
            assertEquals(7, log.deleteRecordsBefore(7));
            assertEquals(7, log.logStartOffset());
            assertEquals(List.of(5L, 10L, 15L), log.segments().stream().map(LogSegment::baseOffset).toList());
            assertEquals(7, log.deleteRecordsBefore(3), "never moves back");
            assertEquals(15, log.deleteRecordsBefore(15));
            assertEquals(List.of(15L), log.segments().stream().map(LogSegment::baseOffset).toList());
            assertEquals(List.of(new EpochEntry(3, 15)), log.leaderEpochCache().entries());
            assertThrows(OffsetOutOfRangeException.class, () -> log.deleteRecordsBefore(16));
        }
    }

    @Test
    void truncateToRemovesWholeBatchesAndLaterSegments() throws Exception {
        try (Log log = Log.open(dir, small().build())) {
            log.append(batch(5, 0), 1, 1);       // 0-4
            log.roll();
            log.append(batch(5, 0), 2, 1);       // 5-9
            log.append(batch(5, 0), 3, 1);       // 10-14
            log.roll();
            log.append(batch(5, 0), 4, 1);       // 15-19
            log.flush();
            assertEquals(20, log.recoveryPoint());
            assertFalse(log.truncateTo(20));
            assertTrue(log.truncateTo(12));
            assertEquals(10, log.logEndOffset(), "the batch 10-14 straddles 12 and goes whole");
            assertEquals(10, log.recoveryPoint());
            assertEquals(2, log.numberOfSegments());
            assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(2, 5)), log.leaderEpochCache().entries());
            assertArrayEquals(range(0, 10), toArray(offsets(TestBatches.readAll(log))));
            assertEquals(10, log.append(batch(2, 0), 5, 1).firstOffset());
            assertTrue(log.truncateTo(5));
            assertEquals(5, log.logEndOffset());
            assertEquals(List.of(new EpochEntry(1, 0)), log.leaderEpochCache().entries());
            assertArrayEquals(range(0, 5), toArray(offsets(TestBatches.readAll(log))));
        }
    }

    @Test
    void truncateToTheEndForgetsAnEpochThatStartsThereWithoutRecords() throws Exception {
        try (Log log = Log.open(dir, small().build())) {
            log.append(batch(5, 0), 3, 1);       // 0-4 in epoch 3
            // This replica led epoch 5 from offset 5 but appended nothing before it became a follower again.
            log.leaderEpochCache().assign(5, 5);
            assertFalse(log.truncateTo(5), "no record goes");
            assertEquals(5, log.logEndOffset());
            assertEquals(List.of(new EpochEntry(3, 0)), log.leaderEpochCache().entries(),
                    "the empty epoch is no longer the last fetched epoch the follower reports");
            assertFalse(log.truncateTo(7));
            assertEquals(List.of(new EpochEntry(3, 0)), log.leaderEpochCache().entries());
        }
    }

    @Test
    void truncateFullyRestartsEmptyAtAnOffset() {
        try (Log log = Log.open(dir, small().build())) {
            log.append(batch(5, 0), 1, 1);
            log.roll();
            log.append(batch(5, 0), 1, 1);
            log.truncateFullyAndStartAt(1000);
            assertEquals(1000, log.logStartOffset());
            assertEquals(1000, log.logEndOffset());
            assertEquals(1, log.numberOfSegments());
            assertEquals(List.of(), log.leaderEpochCache().entries());
            assertFalse(Files.exists(dir.resolve("00000000000000000000.log")));
            assertEquals(1000, log.append(batch(1, 0), 2, 1).firstOffset());
            assertTrue(log.truncateTo(10), "below the log start: restart there");
            assertEquals(10, log.logStartOffset());
            assertEquals(10, log.logEndOffset());
        }
    }

    @Test
    void followerAppendKeepsOffsetsAndEpochsAndRejectsGoingBack() throws Exception {
        try (Log log = Log.open(dir, small().compact(true).build())) { // a compacted leader's log has gaps
            log.appendAsFollower(followerBatch(0, 3, 10, 1), 1);
            AppendInfo info = log.appendAsFollower(TestBatches.concat(followerBatch(5, 2, 20, 1), followerBatch(7, 3, 30, 4)), 1);
            assertEquals(5, info.firstOffset());
            assertEquals(9, info.lastOffset());
            assertEquals(10, log.logEndOffset());
            assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(4, 7)), log.leaderEpochCache().entries());
            assertEquals(List.of(0L, 1L, 2L, 5L, 6L, 7L, 8L, 9L), offsets(log.read(0, 10_000, false).records().readFully()));
            assertEquals(List.of(5L, 6L, 7L, 8L, 9L), offsets(log.read(3, 10_000, false).records().readFully()),
                    "an offset in a gap reads from the next batch");
            byte[] before = bytes(TestBatches.readAll(log));
            assertThrows(UnexpectedAppendOffsetException.class, () -> log.appendAsFollower(followerBatch(9, 1, 1, 4), 1));
            assertThrows(UnexpectedAppendOffsetException.class,
                    () -> log.appendAsFollower(TestBatches.concat(followerBatch(10, 2, 1, 4), followerBatch(11, 1, 1, 4)), 1));
            assertEquals(10, log.logEndOffset());
            assertArrayEquals(before, bytes(TestBatches.readAll(log)));
        }
    }

    @Test
    void followerAppendRefusesAGapInALogThatIsNotCompactedAndAnEpochGoingBack() throws Exception {
        try (Log log = Log.open(dir, small().build())) {
            log.appendAsFollower(TestBatches.concat(followerBatch(0, 3, 10, 1), followerBatch(3, 2, 10, 3)), 1);
            byte[] before = bytes(TestBatches.readAll(log));
            UnexpectedAppendOffsetException gap = assertThrows(UnexpectedAppendOffsetException.class,
                    () -> log.appendAsFollower(followerBatch(6, 1, 10, 3), 1));
            assertTrue(gap.getMessage().contains("gap after offset 4"), gap.getMessage());
            assertThrows(UnexpectedAppendOffsetException.class, () -> log.appendAsFollower(
                    TestBatches.concat(followerBatch(5, 1, 10, 3), followerBatch(7, 1, 10, 3)), 1), "a gap inside");
            UnexpectedLeaderEpochException older = assertThrows(UnexpectedLeaderEpochException.class,
                    () -> log.appendAsFollower(followerBatch(5, 1, 10, 2), 1));
            assertTrue(older.getMessage().contains("leader epoch 2, older than epoch 3"), older.getMessage());
            assertThrows(UnexpectedLeaderEpochException.class, () -> log.appendAsFollower(
                    TestBatches.concat(followerBatch(5, 1, 10, 4), followerBatch(6, 1, 10, 3)), 1), "back inside");
            assertEquals(5, log.logEndOffset(), "nothing of a refused append is written");
            assertArrayEquals(before, bytes(TestBatches.readAll(log)));
            assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(3, 3)), log.leaderEpochCache().entries());

            log.appendAsFollower(followerBatch(5, 1, 10, 3), 1);
            assertEquals(6, log.logEndOffset(), "the batch that continues the log is taken");
        }
    }

    @Test
    void followerAppendFarAheadStartsANewSegmentAtItsOffset() {
        try (Log log = Log.open(dir, small().compact(true).build())) {
            log.appendAsFollower(followerBatch(0, 1, 10, 1), 1);
            log.appendAsFollower(followerBatch(5L + Integer.MAX_VALUE, 1, 10, 1), 1);
            assertEquals(List.of(0L, 5L + Integer.MAX_VALUE), log.segments().stream().map(LogSegment::baseOffset).toList());
            assertEquals(6L + Integer.MAX_VALUE, log.logEndOffset());
        }
    }

    @Test
    void flushesByMessageCountAndMovesTheRecoveryPoint() {
        try (Log log = Log.open(dir, small().flushMessages(5).build())) {
            log.append(batch(3, 0), 0, 1);
            assertEquals(0, log.recoveryPoint());
            log.append(batch(3, 0), 0, 1);
            assertEquals(6, log.recoveryPoint());
        }
        Path other = dir.resolve("by-time");
        try (Log log = Log.open(other, small().flushMs(100).build())) {
            log.append(batch(1, 0), 0, 1000);
            log.append(batch(1, 0), 0, 1099);
            assertEquals(0, log.recoveryPoint());
            log.maybeFlush(1100);
            assertEquals(2, log.recoveryPoint());
        }
    }

    @Test
    void reopensAfterACleanCloseWithTheSameContent() throws Exception {
        byte[] content;
        long recoveryPoint;
        try (Log log = Log.open(dir, small().build())) {
            for (int i = 0; i < 40; i++) {
                log.append(batch(3, 1000 + i), i / 10, 1);
            }
            log.deleteRecordsBefore(4);
            content = bytes(TestBatches.readAll(log));
            log.close();
            recoveryPoint = log.recoveryPoint();
            assertEquals(120, recoveryPoint);
            assertThrows(IllegalStateException.class, () -> log.append(batch(1, 1), 0, 1));
        }
        try (Log log = Log.open(dir, small().build(), recoveryPoint, 4, true)) {
            assertEquals(4, log.logStartOffset());
            assertEquals(120, log.logEndOffset());
            assertArrayEquals(content, bytes(TestBatches.readAll(log)));
            assertEquals(Optional.of(new TimestampOffset(1041, 117)), log.maxTimestampOffset());
            assertEquals(3, log.leaderEpochCache().latestEpoch());
            assertEquals(120, log.append(batch(1, 0), 3, 1).firstOffset());
        }
    }

    @Test
    void aCorruptLeaderEpochFileIsRebuiltFromTheBatches() throws Exception {
        try (Log log = Log.open(dir, small().build())) {
            log.append(batch(2, 0), 1, 1);
            log.append(batch(2, 0), 1, 1);
            log.append(batch(2, 0), 3, 1);
            log.roll();
            log.append(batch(2, 0), 7, 1);
        }
        Files.writeString(dir.resolve(LeaderEpochCache.FILE_NAME), "0\n5\ngarbage\n");
        try (Log log = Log.open(dir, small().build())) {
            assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(3, 4), new EpochEntry(7, 6)),
                    log.leaderEpochCache().entries());
        }
    }

    @Test
    void concurrentReadersNeverSeePastTheEndTheyCaptured() throws Exception {
        try (Log log = Log.open(dir, small().segmentBytes(4096).build())) {
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                Random random = new Random(1);
                try {
                    while (!done.get()) {
                        long end = log.logEndOffset();
                        if (end == 0) {
                            continue;
                        }
                        long offset = random.nextLong(end);
                        LogReadResult result = log.read(offset, 2000, true);
                        List<Long> got = offsets(result.records().readFully());
                        if (got.isEmpty() || got.get(got.size() - 1) >= result.logEndOffset() || got.get(0) > offset) {
                            throw new AssertionError("read at " + offset + " got " + got + " with end "
                                    + result.logEndOffset());
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            reader.start();
            for (int i = 0; i < 1500; i++) {
                log.append(batch(1 + i % 4, i), 0, i);
            }
            done.set(true);
            reader.join();
            if (failure.get() != null) {
                throw new AssertionError("reader failed", failure.get());
            }
            assertTrue(log.numberOfSegments() > 5);
        }
    }
}
