package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.bytes;
import static io.kraft.storage.log.TestBatches.followerBatch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogSegmentTest {
    @TempDir
    Path dir;

    private final LogConfig config = LogConfig.builder().indexIntervalBytes(200).maxIndexBytes(4096).build();

    /** Appends {@code count} batches of 3 records each from offset 100 with timestamps 1000, 1010, ... */
    private List<ByteBuffer> fill(LogSegment segment, int count) {
        List<ByteBuffer> batches = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ByteBuffer batch = followerBatch(100 + 3L * i, 3, 1000 + 10L * i, 1);
            batches.add(batch);
            segment.append(batch.duplicate(), 5000);
        }
        return batches;
    }

    @Test
    void namesFilesByTwentyDigitBaseOffset() {
        try (LogSegment segment = LogSegment.create(dir, 42, config, "")) {
            assertEquals("00000000000000000042.log", segment.logFile().getFileName().toString());
            assertEquals("00000000000000000042.index", segment.offsetIndex().file().getFileName().toString());
            assertEquals("00000000000000000042.timeindex", segment.timeIndex().file().getFileName().toString());
        }
        assertThrows(LogStorageException.class, () -> LogSegment.create(dir, 42, config, ""),
                "a new segment never reuses an existing log file");
    }

    @Test
    void readsFromTheBatchHoldingTheOffsetWithinLimits() throws Exception {
        try (LogSegment segment = LogSegment.create(dir, 100, config, "")) {
            List<ByteBuffer> batches = fill(segment, 20);
            int batchSize = batches.get(0).remaining();
            assertTrue(segment.offsetIndex().entries() > 0, "index entries every 200 bytes");

            FileSlice slice = segment.read(107, Integer.MAX_VALUE, segment.sizeBytes(), false);
            assertEquals(2 * batchSize, slice.position(), "offset 107 lives in the third batch");
            assertEquals(segment.sizeBytes() - 2 * batchSize, slice.sizeBytes());
            assertArrayEquals(bytes(TestBatches.concat(batches.subList(2, 20).toArray(new ByteBuffer[0]))),
                    bytes(slice.readFully()));

            FileSlice limited = segment.read(100, batchSize + 5, segment.sizeBytes(), false);
            assertEquals(batchSize + 5, limited.sizeBytes(), "maxBytes cuts, possibly inside a batch");
            assertEquals(1, TestBatches.parse(limited.readFully()).size());

            FileSlice tiny = segment.read(100, 10, segment.sizeBytes(), true);
            assertEquals(batchSize, tiny.sizeBytes(), "minOneBatch returns a whole first batch");
            assertEquals(10, segment.read(100, 10, segment.sizeBytes(), false).sizeBytes());

            FileSlice bounded = segment.read(100, Integer.MAX_VALUE, 3 * batchSize, false);
            assertEquals(3 * batchSize, bounded.sizeBytes(), "never past maxPosition");
            assertNull(segment.read(100 + 60, 100, segment.sizeBytes(), true), "past the last batch");
            assertNull(segment.read(106, 100, 2 * batchSize, true), "batch beyond maxPosition is invisible");

            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(slice.sizeBytes(), slice.transferTo(Channels.newChannel(out)));
            assertArrayEquals(bytes(slice.readFully()), out.toByteArray());
            assertEquals(160, segment.readNextOffset());
        }
    }

    @Test
    void recoverRebuildsTheSameIndexesAndCutsATornTail() throws Exception {
        List<OffsetPosition> offsets = new ArrayList<>();
        List<TimestampOffset> times = new ArrayList<>();
        int size;
        try (LogSegment segment = LogSegment.create(dir, 100, config, "")) {
            fill(segment, 30);
            for (int i = 0; i < segment.offsetIndex().entries(); i++) {
                offsets.add(segment.offsetIndex().entry(i));
            }
            for (int i = 0; i < segment.timeIndex().entries(); i++) {
                times.add(segment.timeIndex().entry(i));
            }
            size = segment.sizeBytes();
            assertEquals(0, segment.recover(config.maxIndexBytes()));
            assertEquals(offsets.size(), segment.offsetIndex().entries());
            for (int i = 0; i < offsets.size(); i++) {
                assertEquals(offsets.get(i), segment.offsetIndex().entry(i));
            }
            for (int i = 0; i < times.size(); i++) {
                assertEquals(times.get(i), segment.timeIndex().entry(i));
            }
        }
        try (FileChannel channel = FileChannel.open(dir.resolve("00000000000000000100.log"), StandardOpenOption.WRITE)) {
            channel.truncate(size - 7);
        }
        try (LogSegment segment = LogSegment.open(dir, 100, config, "")) {
            assertThrows(CorruptIndexException.class, segment::sanityCheck, "a torn tail fails the check");
            int batchSize = size / 30;
            assertEquals(batchSize - 7, segment.recover(config.maxIndexBytes()));
            assertEquals(29 * batchSize, segment.sizeBytes());
            assertEquals(100 + 29 * 3, segment.readNextOffset());
            segment.sanityCheck();
        }
    }

    @Test
    void truncateToCutsTheBatchHoldingTheOffsetAndItsIndexEntries() throws Exception {
        try (LogSegment segment = LogSegment.create(dir, 100, config, "")) {
            List<ByteBuffer> batches = fill(segment, 20);
            int batchSize = batches.get(0).remaining();
            int removed = segment.truncateTo(131, config.maxIndexBytes());
            assertEquals(10 * batchSize, removed, "offset 131 is in batch 10 (130..132)");
            assertEquals(10 * batchSize, segment.sizeBytes());
            assertEquals(130, segment.readNextOffset());
            assertTrue(segment.offsetIndex().lastEntry().orElseThrow().offset() < 130);
            assertTrue(segment.timeIndex().lastEntry().offset() < 130);
            assertEquals(1090, segment.maxTimestampMs(), "max timestamp of batch 9, the last one left");
            assertEquals(0, segment.truncateTo(500, config.maxIndexBytes()));
            segment.append(followerBatch(130, 3, 2000, 1), 5000);
            assertEquals(133, segment.readNextOffset());
            segment.sanityCheck();
        }
    }

    @Test
    void findsTheFirstBatchAtOrAfterATimestamp() {
        try (LogSegment segment = LogSegment.create(dir, 100, config, "")) {
            fill(segment, 20);
            assertEquals(Optional.of(new TimestampOffset(1000, 100)), segment.findOffsetByTimestamp(0, 100));
            assertEquals(Optional.of(new TimestampOffset(1050, 115)), segment.findOffsetByTimestamp(1045, 100));
            assertEquals(Optional.of(new TimestampOffset(1050, 115)), segment.findOffsetByTimestamp(1050, 100));
            assertEquals(Optional.of(new TimestampOffset(1050, 116)), segment.findOffsetByTimestamp(1045, 116),
                    "raised to the starting offset");
            assertEquals(Optional.of(new TimestampOffset(1190, 157)), segment.findOffsetByTimestamp(1185, 0));
            assertEquals(Optional.empty(), segment.findOffsetByTimestamp(1191, 100));
        }
    }

    @Test
    void rollsOnSizeAgeFullIndexAndOffsetOverflow() {
        LogConfig small = LogConfig.builder().segmentBytes(1000).segmentMs(100).indexIntervalBytes(0)
                .maxIndexBytes(LogConfig.MIN_INDEX_BYTES * 2).build();
        try (LogSegment segment = LogSegment.create(dir, 0, small, "")) {
            assertFalse(segment.shouldRoll(5000, 10, 0, small), "an empty segment takes any append");
            segment.append(followerBatch(0, 1, 10, 0), 1000);
            int size = segment.sizeBytes();
            assertFalse(segment.shouldRoll(1000 - size, 1, 1000, small));
            assertTrue(segment.shouldRoll(1001 - size, 1, 1000, small), "size");
            assertFalse(segment.shouldRoll(10, 1, 1100, small));
            assertTrue(segment.shouldRoll(10, 1, 1101, small), "age from the first append");
            assertTrue(segment.shouldRoll(10, 1L + Integer.MAX_VALUE, 1000, small), "relative offset overflow");
            segment.append(followerBatch(1, 1, 10, 0), 1000);
            segment.append(followerBatch(2, 1, 11, 0), 1000);
            segment.append(followerBatch(3, 1, 12, 0), 1000);
            assertTrue(segment.timeIndex().isFull());
            assertTrue(segment.shouldRoll(10, 4, 1000, small), "full index");
        }
    }

    @Test
    void renamesAllFilesWithASuffixAndDeletes() throws Exception {
        LogSegment segment = LogSegment.create(dir, 7, config, LogFileNames.CLEANED_SUFFIX);
        segment.append(followerBatch(7, 2, 10, 0), 1);
        assertTrue(Files.exists(dir.resolve("00000000000000000007.log.cleaned")));
        segment.changeFileSuffixes(LogFileNames.CLEANED_SUFFIX, LogFileNames.SWAP_SUFFIX);
        assertTrue(Files.exists(dir.resolve("00000000000000000007.log.swap")));
        assertTrue(Files.exists(dir.resolve("00000000000000000007.index.swap")));
        assertTrue(Files.exists(dir.resolve("00000000000000000007.timeindex.swap")));
        assertEquals(9, segment.readNextOffset(), "still readable after renames");
        segment.deleteFiles();
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void reopenedSegmentKeepsItsMaxTimestampFromTheFinalTimeIndexEntry() {
        try (LogSegment segment = LogSegment.create(dir, 100, config, "")) {
            fill(segment, 5);
        }
        try (LogSegment segment = LogSegment.open(dir, 100, config, "")) {
            segment.sanityCheck();
            assertEquals(1040, segment.maxTimestampMs());
            assertEquals(114, segment.maxTimestampBatchLastOffset());
        }
    }
}
