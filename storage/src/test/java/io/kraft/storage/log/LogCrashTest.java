package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crashes (file handles dropped without flush or trim), then damage past the recovery point: the
 * active log cut at a random byte or random bytes flipped, and index files deleted or garbled
 * anywhere. Reopening must give the longest valid prefix, lose nothing below the recovery point,
 * answer index lookups correctly and accept appends. {@code -Dkraft.seed=N} replays one case.
 */
class LogCrashTest {
    private static final int CASES = Integer.getInteger("kraft.seeds", 200);

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path root;

    private record Written(long baseOffset, long lastOffset, long maxTimestampMs, byte[] bytes) {
    }

    @Test
    void reopeningAfterACrashKeepsTheLongestValidPrefix() {
        Long replay = Long.getLong("kraft.seed");
        long master = replay != null ? replay : new Random().nextLong();
        Random seeds = new Random(master);
        int count = replay != null ? 1 : CASES;
        for (int i = 0; i < count; i++) {
            long seed = replay != null ? replay : seeds.nextLong();
            try {
                crashAndRecover(root.resolve("case-" + i), seed);
            } catch (Throwable t) {
                System.err.println("LogCrashTest failed with seed " + seed + "; replay with -Dkraft.seed=" + seed);
                throw new AssertionError("crash case failed with seed " + seed + " (replay: -Dkraft.seed=" + seed
                        + "): " + t, t);
            }
        }
    }

    private void crashAndRecover(Path dir, long seed) throws Exception {
        Random random = new Random(seed);
        LogConfig config = LogConfig.builder()
                .segmentBytes(1200 + random.nextInt(3000))
                .indexIntervalBytes(random.nextInt(300))
                .maxIndexBytes(LogConfig.MIN_INDEX_BYTES + random.nextInt(300))
                .fileDeleteDelayMs(0)
                .build();
        List<Written> written = new ArrayList<>();
        Log log = Log.open(dir, config);
        int appends = 5 + random.nextInt(50);
        long nowMs = 1_000_000;
        for (int i = 0; i < appends; i++) {
            nowMs += random.nextInt(20);
            ByteBuffer batch = TestBatches.batch(1 + random.nextInt(6), nowMs - random.nextInt(50),
                    1 + random.nextInt(80), random.nextInt(4) == 0 ? Compression.gzip().build() : Compression.NONE,
                    random);
            log.append(batch, i / 10, nowMs);
            MutableRecordBatch parsed = TestBatches.parse(batch).get(0);
            written.add(new Written(parsed.baseOffset(), parsed.lastOffset(), parsed.maxTimestamp(),
                    TestBatches.bytes(batch)));
            if (random.nextInt(15) == 0) {
                log.flush();
            }
        }
        long recoveryPoint = log.recoveryPoint();
        LogSegment active = log.activeSegment();
        Path activeFile = active.logFile();
        List<Path> indexFiles = new ArrayList<>();
        for (LogSegment segment : log.segments()) {
            indexFiles.add(segment.offsetIndex().file());
            indexFiles.add(segment.timeIndex().file());
        }
        int flushedBytesInActive = 0;
        for (Written w : written) {
            if (w.baseOffset() >= active.baseOffset() && w.lastOffset() < recoveryPoint) {
                flushedBytesInActive += w.bytes().length;
            }
        }
        log.closeHandlers();

        // Damage past the recovery point: the first damaged byte decides the valid prefix.
        long activeSize = Files.size(activeFile);
        long firstBadPosition = Long.MAX_VALUE;
        int mode = random.nextInt(3);
        if (mode == 0 && activeSize > flushedBytesInActive) {
            long cut = flushedBytesInActive + (long) (random.nextDouble() * (activeSize - flushedBytesInActive));
            try (RandomAccessFile raf = new RandomAccessFile(activeFile.toFile(), "rw")) {
                raf.setLength(cut);
            }
            firstBadPosition = cut;
        } else if (mode == 1 && activeSize > flushedBytesInActive) {
            int flips = 1 + random.nextInt(3);
            try (RandomAccessFile raf = new RandomAccessFile(activeFile.toFile(), "rw")) {
                for (int f = 0; f < flips; f++) {
                    long position = flushedBytesInActive + (long) (random.nextDouble() * (activeSize - flushedBytesInActive));
                    if (isUncheckedHeaderByte(written, active.baseOffset(), position)) {
                        continue; // base offset and leader epoch are outside the CRC by design
                    }
                    raf.seek(position);
                    int old = raf.read();
                    raf.seek(position);
                    raf.write(old ^ (1 + random.nextInt(255)));
                    firstBadPosition = Math.min(firstBadPosition, position);
                }
            }
        }
        int indexDamage = random.nextInt(3);
        for (Path index : indexFiles) {
            if (indexDamage == 1 && random.nextInt(3) == 0) {
                Files.deleteIfExists(index);
            } else if (indexDamage == 2 && random.nextInt(3) == 0 && Files.size(index) > 0) {
                try (RandomAccessFile raf = new RandomAccessFile(index.toFile(), "rw")) {
                    long position = (long) (random.nextDouble() * raf.length());
                    boolean timeIndexOffset = index.toString().endsWith(LogFileNames.TIME_INDEX_SUFFIX)
                            && position % TimeIndex.ENTRY_SIZE_BYTES >= 8;
                    // A time index offset flipped onto another batch with the same max timestamp is
                    // self-consistent and undetectable without checksums; every other flip is caught.
                    if (!timeIndexOffset) {
                        raf.seek(position);
                        raf.write(random.nextInt(256));
                    }
                }
            } else if (indexDamage == 2 && random.nextInt(4) == 0) {
                try (RandomAccessFile raf = new RandomAccessFile(index.toFile(), "rw")) {
                    raf.setLength(raf.length() + 1 + random.nextInt(40)); // zero tail, maybe a partial entry
                }
            }
        }

        List<Written> expected = new ArrayList<>();
        long position = 0;
        for (Written w : written) {
            if (w.baseOffset() >= active.baseOffset()) {
                if (position + w.bytes().length > firstBadPosition) {
                    break;
                }
                position += w.bytes().length;
            }
            expected.add(w);
        }
        long expectedEnd = expected.isEmpty() ? 0 : expected.get(expected.size() - 1).lastOffset() + 1;
        expectedEnd = Math.max(expectedEnd, active.baseOffset());
        assertTrue(expectedEnd >= recoveryPoint, "the damage stayed past the recovery point");

        try (Log recovered = Log.open(dir, config, recoveryPoint, 0, false)) {
            assertEquals(expectedEnd, recovered.logEndOffset(), "log end after recovery");
            ByteArrayOutputStream expectedBytes = new ByteArrayOutputStream();
            for (Written w : expected) {
                expectedBytes.writeBytes(w.bytes());
            }
            assertArrayEquals(expectedBytes.toByteArray(), TestBatches.bytes(TestBatches.readAll(recovered)));
            for (LogSegment segment : recovered.segments()) {
                segment.sanityCheck();
            }
            for (int probe = 0; probe < 20 && !expected.isEmpty(); probe++) {
                long offset = (long) (random.nextDouble() * expectedEnd);
                Written holder = expected.stream().filter(w -> w.lastOffset() >= offset).findFirst().orElseThrow();
                List<MutableRecordBatch> got = TestBatches.parse(recovered.read(offset, 1, true).records().readFully());
                assertEquals(holder.baseOffset(), got.get(0).baseOffset(), "batch found for offset " + offset);
                long ts = nowMs - random.nextInt(200);
                Optional<TimestampOffset> byTime = expected.stream().filter(w -> w.maxTimestampMs() >= ts).findFirst()
                        .map(w -> new TimestampOffset(w.maxTimestampMs(), w.baseOffset()));
                assertEquals(byTime, recovered.offsetForTimestamp(ts), "offsetForTimestamp(" + ts + ")");
            }
            AppendInfo info = recovered.append(TestBatches.batch(2, nowMs), 99, nowMs);
            assertEquals(expectedEnd, info.firstOffset());
            assertEquals(expectedEnd + 2, recovered.logEndOffset());
        }
    }

    /** Whether an active-segment position falls in a batch's base offset or leader epoch field. */
    private static boolean isUncheckedHeaderByte(List<Written> written, long activeBase, long position) {
        long start = 0;
        for (Written w : written) {
            if (w.baseOffset() < activeBase) {
                continue;
            }
            if (position < start + w.bytes().length) {
                long inBatch = position - start;
                return inBatch < 8 || (inBatch >= 12 && inBatch < 16);
            }
            start += w.bytes().length;
        }
        return false;
    }
}
