package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random sequences of log operations checked against a plain in-memory model after every step.
 * A failure names its seed; {@code -Dkraft.seed=N} replays that one sequence, {@code -Dkraft.seeds=N}
 * changes how many run.
 */
class LogModelTest {
    private static final int SEQUENCES = Integer.getInteger("kraft.seeds", 1000);
    private static final int OPERATIONS = 60;

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path root;

    /** A batch as the model knows it: offsets, max timestamp and the exact bytes on disk. */
    private record ModelBatch(long baseOffset, long lastOffset, long maxTimestampMs, byte[] bytes) {
    }

    /** The expected state: batches physically present, plus the log's bounds. */
    private static final class Model {
        final List<ModelBatch> batches = new ArrayList<>();
        long start;
        long end;

        List<ModelBatch> from(long offset) {
            return batches.stream().filter(b -> b.lastOffset() >= offset).toList();
        }
    }

    @Test
    void randomOperationSequencesMatchTheModel() {
        Long replay = Long.getLong("kraft.seed");
        long master = replay != null ? replay : new Random().nextLong();
        Random seeds = new Random(master);
        int count = replay != null ? 1 : SEQUENCES;
        for (int i = 0; i < count; i++) {
            long seed = replay != null ? replay : seeds.nextLong();
            try {
                new Sequence(root.resolve("seq-" + i), seed).run();
            } catch (Throwable t) {
                System.err.println("LogModelTest failed with seed " + seed + "; replay with -Dkraft.seed=" + seed);
                throw new AssertionError("model sequence failed with seed " + seed
                        + " (replay: -Dkraft.seed=" + seed + "): " + t, t);
            }
        }
    }

    private static final class Sequence {
        private final Path dir;
        private final Random random;
        private final LogConfig config;
        private final Model model = new Model();
        private Log log;
        private long nowMs = 1_000_000;
        private int epoch = 0;

        Sequence(Path dir, long seed) {
            this.dir = dir;
            this.random = new Random(seed);
            this.config = LogConfig.builder()
                    .segmentBytes(300 + random.nextInt(3000))
                    .segmentMs(random.nextBoolean() ? Long.MAX_VALUE : 200 + random.nextInt(1000))
                    .indexIntervalBytes(random.nextInt(400))
                    .maxIndexBytes(LogConfig.MIN_INDEX_BYTES + random.nextInt(200))
                    .retentionMs(random.nextInt(4) == 0 ? -1 : 100 + random.nextInt(1000))
                    .retentionBytes(random.nextInt(3) == 0 ? 500 + random.nextInt(5000) : -1)
                    .fileDeleteDelayMs(random.nextBoolean() ? 0 : 50)
                    .logAppendTime(random.nextInt(4) == 0)
                    .delete(random.nextInt(6) != 0)
                    .build();
        }

        void run() throws Exception {
            log = Log.open(dir, config);
            try {
                for (int op = 0; op < OPERATIONS; op++) {
                    nowMs += random.nextInt(40);
                    step(random.nextInt(100));
                    assertEquals(model.end, log.logEndOffset(), "log end offset");
                    assertEquals(model.start, log.logStartOffset(), "log start offset");
                    pruneBelowFirstSegment();
                    if (op % 6 == 5) {
                        checkEverything();
                    }
                }
                checkEverything();
            } finally {
                log.close();
            }
        }

        private void step(int dice) throws Exception {
            if (dice < 40) {
                leaderAppend();
            } else if (dice < 45) {
                followerAppend();
            } else if (dice < 62) {
                read();
            } else if (dice < 66) {
                log.roll();
            } else if (dice < 72) {
                truncateTo();
            } else if (dice < 74) {
                long offset = model.end + random.nextInt(5);
                log.truncateFullyAndStartAt(offset);
                model.batches.clear();
                model.start = model.end = offset;
            } else if (dice < 79) {
                long offset = model.start + (long) (random.nextDouble() * (model.end - model.start + 1));
                assertEquals(Math.max(offset, model.start), log.deleteRecordsBefore(offset));
                model.start = Math.max(offset, model.start);
                List<LogSegment> segments = log.segments();
                for (int i = 0; i + 1 < segments.size(); i++) {
                    assertTrue(segments.get(i + 1).baseOffset() > model.start,
                            "segment " + segments.get(i) + " left wholly below the log start");
                }
            } else if (dice < 87) {
                nowMs += random.nextInt(400);
                retention();
            } else if (dice < 92) {
                offsetForTimestamp();
            } else if (dice < 96) {
                reopen();
            } else if (dice < 98) {
                log.flush();
                assertEquals(model.end, log.recoveryPoint());
            } else {
                epoch++;
            }
        }

        private ByteBuffer producerBatches() {
            int batchCount = 1 + random.nextInt(3);
            ByteBuffer[] parts = new ByteBuffer[batchCount];
            for (int i = 0; i < batchCount; i++) {
                Compression compression = random.nextInt(5) == 0 ? Compression.lz4().build() : Compression.NONE;
                parts[i] = TestBatches.batch(1 + random.nextInt(5), nowMs - random.nextInt(100),
                        1 + random.nextInt(60), compression, random);
            }
            return TestBatches.concat(parts);
        }

        private void addToModel(ByteBuffer written) {
            ByteBuffer view = written.duplicate();
            for (MutableRecordBatch batch : TestBatches.parse(written)) {
                byte[] bytes = new byte[batch.sizeInBytes()];
                view.get(bytes);
                model.batches.add(new ModelBatch(batch.baseOffset(), batch.lastOffset(), batch.maxTimestamp(), bytes));
                model.end = batch.nextOffset();
            }
        }

        private void leaderAppend() {
            ByteBuffer records = producerBatches();
            if (records.remaining() > config.segmentBytes()) {
                assertThrows(RecordTooLargeException.class, () -> log.append(records, epoch, nowMs));
                return;
            }
            long expectedFirst = model.end;
            AppendInfo info = log.append(records, epoch, nowMs);
            assertEquals(expectedFirst, info.firstOffset());
            addToModel(records);
            assertEquals(model.end - 1, info.lastOffset());
            if (config.logAppendTime()) {
                assertEquals(nowMs, info.maxTimestampMs());
            }
        }

        private void followerAppend() {
            int gap = random.nextInt(3);
            ByteBuffer records = TestBatches.followerBatch(model.end, 1 + random.nextInt(4), nowMs, epoch);
            if (gap > 0) {
                // Only a compacted log may have gaps; these logs are not compacted.
                ByteBuffer gapped = TestBatches.followerBatch(model.end + gap, 1, nowMs, epoch);
                assertThrows(UnexpectedAppendOffsetException.class, () -> log.appendAsFollower(gapped, nowMs));
            }
            if (epoch > 0 && random.nextInt(4) == 0) {
                ByteBuffer older = TestBatches.followerBatch(model.end, 1, nowMs, epoch - 1);
                if (log.leaderEpochCache().latestEpoch() > epoch - 1) {
                    assertThrows(UnexpectedLeaderEpochException.class, () -> log.appendAsFollower(older, nowMs));
                }
            }
            if (random.nextInt(4) == 0 && model.end > 0) {
                ByteBuffer stale = TestBatches.followerBatch(model.end - 1, 1, nowMs, epoch);
                assertThrows(UnexpectedAppendOffsetException.class, () -> log.appendAsFollower(stale, nowMs));
            }
            log.appendAsFollower(records, nowMs);
            addToModel(records);
        }

        private void read() throws Exception {
            int choice = random.nextInt(20);
            if (choice == 0) {
                assertThrows(OffsetOutOfRangeException.class, () -> log.read(model.end + 1, 100, true));
                return;
            }
            if (choice == 1 && model.start > 0) {
                assertThrows(OffsetOutOfRangeException.class, () -> log.read(model.start - 1, 100, true));
                return;
            }
            long offset = model.start + (long) (random.nextDouble() * (model.end - model.start + 1));
            int maxBytes = random.nextInt(3) == 0 ? random.nextInt(100) : random.nextInt(3000);
            boolean minOneBatch = random.nextBoolean();
            LogReadResult result = log.read(offset, maxBytes, minOneBatch);
            byte[] actual = TestBatches.bytes(result.records().readFully());
            assertArrayEquals(expectedRead(offset, maxBytes, minOneBatch), actual,
                    "read(" + offset + ", " + maxBytes + ", " + minOneBatch + ")");
            if (!result.records().isEmpty()) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                result.records().transferTo(Channels.newChannel(out));
                assertArrayEquals(actual, out.toByteArray(), "transferTo moves the same bytes");
            }
        }

        /** Bytes from the batch holding offset to the end of its segment, cut at the read limit. */
        private byte[] expectedRead(long offset, int maxBytes, boolean minOneBatch) {
            if (offset >= model.end) {
                return new byte[0];
            }
            List<ModelBatch> rest = model.from(offset);
            if (rest.isEmpty()) {
                return new byte[0];
            }
            ModelBatch first = rest.get(0);
            long segmentEnd = nextSegmentBase(first.baseOffset());
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            for (ModelBatch batch : rest) {
                if (batch.baseOffset() >= segmentEnd) {
                    break;
                }
                stream.writeBytes(batch.bytes());
            }
            int limit = minOneBatch ? Math.max(maxBytes, first.bytes().length) : maxBytes;
            byte[] all = stream.toByteArray();
            return Arrays.copyOf(all, Math.min(all.length, limit));
        }

        private long nextSegmentBase(long offset) {
            for (LogSegment segment : log.segments()) {
                if (segment.baseOffset() > offset) {
                    return segment.baseOffset();
                }
            }
            return Long.MAX_VALUE;
        }

        private void truncateTo() {
            long low = Math.max(0, model.start - 2);
            long offset = low + (long) (random.nextDouble() * (model.end - low + 1));
            List<LogSegment> segmentsBefore = log.segments();
            boolean changed = log.truncateTo(offset);
            assertEquals(offset < model.end, changed);
            if (!changed) {
                return;
            }
            if (offset < model.start) {
                model.batches.clear();
                model.start = model.end = offset;
                return;
            }
            long targetBase = 0;
            for (LogSegment segment : segmentsBefore) {
                if (segment.baseOffset() <= offset) {
                    targetBase = segment.baseOffset();
                }
            }
            model.batches.removeIf(b -> b.lastOffset() >= offset);
            long dataEnd = targetBase;
            if (!model.batches.isEmpty() && model.batches.get(model.batches.size() - 1).baseOffset() >= targetBase) {
                dataEnd = model.batches.get(model.batches.size() - 1).lastOffset() + 1;
            }
            model.end = Math.max(dataEnd, model.start);
        }

        private void retention() {
            List<LogSegment> segments = log.segments();
            List<List<ModelBatch>> content = new ArrayList<>();
            for (int i = 0; i < segments.size(); i++) {
                long base = segments.get(i).baseOffset();
                long next = i + 1 < segments.size() ? segments.get(i + 1).baseOffset() : Long.MAX_VALUE;
                content.add(model.batches.stream().filter(b -> b.baseOffset() >= base && b.baseOffset() < next).toList());
            }
            int deleted = 0;
            int first = 0;
            boolean activeGone = false;
            if (config.delete() && config.retentionMs() >= 0) {
                while (first < segments.size()) {
                    boolean active = first == segments.size() - 1;
                    List<ModelBatch> batches = content.get(first);
                    if (active && batches.isEmpty()) {
                        break;
                    }
                    long maxTs = batches.stream().mapToLong(ModelBatch::maxTimestampMs).max().orElse(-1);
                    if (nowMs - maxTs <= config.retentionMs()) {
                        break;
                    }
                    activeGone |= active;
                    first++;
                    deleted++;
                }
            }
            if (config.delete() && config.retentionBytes() >= 0 && !activeGone) {
                long total = 0;
                for (int i = first; i < segments.size(); i++) {
                    total += size(content.get(i));
                }
                long excess = total - config.retentionBytes();
                while (first < segments.size()) {
                    boolean active = first == segments.size() - 1;
                    long size = size(content.get(first));
                    if ((active && size == 0) || excess - size < 0) {
                        break;
                    }
                    excess -= size;
                    activeGone |= active;
                    first++;
                    deleted++;
                }
            }
            if (!activeGone) {
                long start = first < segments.size() ? Math.max(model.start, segments.get(first).baseOffset())
                        : model.start;
                while (first < segments.size() - 1 && segments.get(first + 1).baseOffset() <= start) {
                    first++;
                    deleted++;
                }
            }
            assertEquals(deleted, log.deleteExpiredSegments(nowMs), "segments deleted by retention");
            if (deleted > 0) {
                long newFirstBase = activeGone ? model.end : segments.get(first).baseOffset();
                model.start = Math.max(model.start, newFirstBase);
                model.batches.removeIf(b -> b.baseOffset() < newFirstBase);
            }
        }

        private static long size(List<ModelBatch> batches) {
            return batches.stream().mapToLong(b -> b.bytes().length).sum();
        }

        private void offsetForTimestamp() {
            long target = nowMs - random.nextInt(600);
            Optional<TimestampOffset> expected = model.batches.stream()
                    .filter(b -> b.lastOffset() >= model.start && b.maxTimestampMs() >= target)
                    .findFirst()
                    .map(b -> new TimestampOffset(b.maxTimestampMs(), Math.max(b.baseOffset(), model.start)));
            assertEquals(expected, log.offsetForTimestamp(target), "offsetForTimestamp(" + target + ")");
            Optional<ModelBatch> max = Optional.empty();
            for (ModelBatch batch : model.batches) {
                if (max.isEmpty() || batch.maxTimestampMs() > max.get().maxTimestampMs()) {
                    max = Optional.of(batch);
                }
            }
            assertEquals(max.map(b -> new TimestampOffset(b.maxTimestampMs(), Math.max(b.baseOffset(), model.start))),
                    log.maxTimestampOffset(), "maxTimestampOffset");
        }

        private void reopen() {
            long recoveryPoint = log.recoveryPoint();
            long start = log.logStartOffset();
            log.close();
            assertEquals(model.end, log.recoveryPoint(), "close flushes everything");
            int how = random.nextInt(3);
            log = switch (how) {
                case 0 -> Log.open(dir, config, log.recoveryPoint(), start, true);
                case 1 -> Log.open(dir, config, recoveryPoint, start, false);
                default -> Log.open(dir, config, 0, start, false);
            };
        }

        /** Drops model batches in segments the log deleted (wholly below the log start). */
        private void pruneBelowFirstSegment() {
            long firstBase = log.segments().get(0).baseOffset();
            model.batches.removeIf(b -> b.baseOffset() < firstBase);
            assertTrue(firstBase <= model.start, "first segment starts at or below the log start");
        }

        private void checkEverything() throws Exception {
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (ModelBatch batch : model.from(model.start)) {
                expected.writeBytes(batch.bytes());
            }
            assertArrayEquals(expected.toByteArray(), TestBatches.bytes(TestBatches.readAll(log)), "log content");
            List<LogSegment> segments = log.segments();
            for (int i = 0; i < segments.size(); i++) {
                LogSegment segment = segments.get(i);
                long next = i + 1 < segments.size() ? segments.get(i + 1).baseOffset() : Long.MAX_VALUE;
                long modelSize = size(model.batches.stream()
                        .filter(b -> b.baseOffset() >= segment.baseOffset() && b.baseOffset() < next).toList());
                assertEquals(modelSize, segment.sizeBytes(), "size of " + segment);
                segment.sanityCheck();
            }
            assertTrue(log.leaderEpochCache().latestEpoch() <= epoch);
        }
    }
}
