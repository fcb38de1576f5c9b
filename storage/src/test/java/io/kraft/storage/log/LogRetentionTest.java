package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.followerBatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What retention chooses: always the oldest segments, in order, and never data at or past the high watermark. */
class LogRetentionTest {
    private static final LogConfig CONFIG = LogConfig.builder().maxIndexBytes(1024).fileDeleteDelayMs(0).build();
    private static final long DAY_MS = 86_400_000L;

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path dir;

    private LogSegments segments;
    private LogBounds bounds;
    private LogRetention retention;

    /** One segment per timestamp, each of 10 offsets, the last one active; the log starts at 0. */
    private void segmentsWithTimestamps(long... timestampsMs) {
        TreeMap<Long, LogSegment> map = new TreeMap<>();
        for (int i = 0; i < timestampsMs.length; i++) {
            LogSegment segment = LogSegment.create(dir, i * 10L, CONFIG, "");
            segment.append(followerBatch(i * 10L, 10, timestampsMs[i], 0), 0);
            map.put(i * 10L, segment);
        }
        segments = new LogSegments(dir, map);
        LogSegment active = segments.active();
        bounds = new LogBounds(new LogEnd(timestampsMs.length * 10L, active.baseOffset(), active.sizeBytes()), 0);
        retention = new LogRetention(segments, bounds, new LeaderEpochCache(dir), new LogProducerState(dir),
                offset -> fail("no roll expected"));
    }

    @AfterEach
    void close() {
        segments.close();
    }

    private static List<Long> bases(List<LogSegment> chosen) {
        return chosen.stream().map(LogSegment::baseOffset).toList();
    }

    @Test
    void anExpiredSegmentAfterAYoungerOneStays() {
        long now = 10 * DAY_MS;
        segmentsWithTimestamps(now - 9 * DAY_MS, now - 8 * DAY_MS, now - 1_000, now - 9 * DAY_MS, now);
        LogConfig week = CONFIG.toBuilder().retentionMs(7 * DAY_MS).build();
        assertEquals(List.of(0L, 10L), bases(retention.pastRetentionTime(week, now, Long.MAX_VALUE)),
                "only a prefix of the log goes");
    }

    @Test
    void nothingAtOrPastTheHighWatermarkIsChosen() {
        segmentsWithTimestamps(0, 0, 0, 0);
        LogConfig expired = CONFIG.toBuilder().retentionMs(1).build();
        assertEquals(List.of(0L), bases(retention.pastRetentionTime(expired, DAY_MS, 19)),
                "offset 19 is at the high watermark, so its segment stays");
        assertEquals(List.of(0L, 10L), bases(retention.pastRetentionTime(expired, DAY_MS, 20)));
        assertEquals(List.of(0L, 10L, 20L), bases(retention.pastRetentionTime(expired, DAY_MS, 39)),
                "the active segment goes only when wholly below the high watermark");
        assertEquals(List.of(0L, 10L, 20L, 30L), bases(retention.pastRetentionTime(expired, DAY_MS, 40)));
    }

    @Test
    void sizeRetentionKeepsAtLeastRetentionBytes() {
        segmentsWithTimestamps(0, 0, 0, 0);
        long segmentBytes = segments.active().sizeBytes();
        LogConfig twoAndAHalf = CONFIG.toBuilder().retentionBytes(segmentBytes * 5 / 2).build();
        assertEquals(List.of(0L), bases(retention.beyondRetentionSize(twoAndAHalf, Long.MAX_VALUE)),
                "deleting a second segment would leave less than retention.bytes");
    }

    @Test
    void withoutTheDeletePolicyNeitherTimeNorSizeChooses() {
        segmentsWithTimestamps(0, 0, 0);
        LogConfig compactOnly = CONFIG.toBuilder().delete(false).compact(true).retentionMs(1).retentionBytes(0).build();
        assertEquals(List.of(), retention.pastRetentionTime(compactOnly, DAY_MS, Long.MAX_VALUE));
        assertEquals(List.of(), retention.beyondRetentionSize(compactOnly, Long.MAX_VALUE));
    }

    @Test
    void deleteRecordsNeverMovesTheStartBackAndKeepsTheSegmentItFallsIn() {
        segmentsWithTimestamps(0, 0, 0);
        assertEquals(15, retention.deleteRecordsBefore(15, CONFIG));
        assertEquals(List.of(10L, 20L), bases(segments.copy()), "segment 0 lies wholly below 15");
        assertEquals(15, retention.deleteRecordsBefore(5, CONFIG));
        assertEquals(15, bounds.startOffset());
    }

    @Test
    void aRetentionPassMovesTheStartToTheFirstSegmentLeft() {
        segmentsWithTimestamps(0, 0, DAY_MS);
        LogConfig expired = CONFIG.toBuilder().retentionMs(1).build();
        assertEquals(2, retention.deleteExpired(expired, DAY_MS, Long.MAX_VALUE));
        assertEquals(20, bounds.startOffset());
        assertEquals(List.of(20L), bases(segments.copy()));
    }
}
