package io.kraft.storage.cleaner;

import static io.kraft.storage.cleaner.CleanerTestLog.append;
import static io.kraft.storage.cleaner.CleanerTestLog.appendIdempotent;
import static io.kraft.storage.cleaner.CleanerTestLog.batches;
import static io.kraft.storage.cleaner.CleanerTestLog.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.cleaner.CleanerTestLog.Row;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.LogSegment;
import io.kraft.storage.log.MemoryBackedTempDirFactory;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.ControlRecordType;
import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.EndTransactionMarker;
import io.kraft.storage.record.RecordBatch;
import io.kraft.storage.record.RecordBatchBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogCleanerTest {
    private static final long DAY_MS = 24 * 3600 * 1000L;
    private static final long NOW = 1_700_000_000_000L;

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path dir;

    private static LogConfig config(int segmentBytes) {
        return LogConfig.defaults().toBuilder().segmentBytes(segmentBytes).compact(true).delete(false)
                .deleteRetentionMs(DAY_MS).build();
    }

    private static final LogCleaner CLEANER = new LogCleaner(1024 * 1024);

    private static CleanResult cleanAll(Log log, long nowMs) {
        return CLEANER.clean(log, log.logStartOffset(), log.logEndOffset(), nowMs);
    }

    @Test
    void keepsLatestValuePerKeyAtItsOriginalOffset() {
        try (Log log = Log.open(dir, config(300))) {
            for (int round = 0; round < 5; round++) {
                append(log, CompressionType.NONE, NOW, "a", "a" + round, "b", "b" + round);
                append(log, CompressionType.GZIP, NOW, "c", "c" + round);
            }
            log.roll();
            List<Row> before = rows(log);
            CleanResult result = cleanAll(log, NOW);
            assertTrue(result.segmentsCleaned() > 0);
            List<Row> after = rows(log);
            assertEquals(List.of(new Row(12, "a", "a4"), new Row(13, "b", "b4"), new Row(14, "c", "c4")), after);
            assertEquals(before.size() - 3, result.recordsRemoved());
            assertEquals(15, log.logEndOffset(), "log end offset is unchanged by cleaning");
            assertEquals(log.logEndOffset(), result.nextDirtyOffset());
        }
    }

    @Test
    void readsAcrossOffsetGapsReturnTheNextSurvivingBatch() {
        try (Log log = Log.open(dir, config(200))) {
            append(log, CompressionType.NONE, NOW, "k1", "old");    // 0
            append(log, CompressionType.NONE, NOW, "k2", "keep");   // 1
            append(log, CompressionType.NONE, NOW, "k1", "new");    // 2
            append(log, CompressionType.NONE, NOW, "k3", "keep");   // 3
            log.roll();
            cleanAll(log, NOW);
            assertEquals(List.of(new Row(1, "k2", "keep"), new Row(2, "k1", "new"), new Row(3, "k3", "keep")), rows(log));
            // Offset 0 is gone: a fetch there starts at the next surviving batch.
            RecordBatch first = batches(log).get(0);
            assertEquals(1, first.baseOffset());
            assertEquals(1, firstBaseOffsetRead(log, 0));
        }
    }

    private static long firstBaseOffsetRead(Log log, long offset) {
        try {
            ByteBuffer bytes = log.read(offset, 1000, true).records().readFully();
            return new RecordBatch(bytes, 0).baseOffset();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void tombstoneIsKeptUntilItsDeleteHorizonThenDropped() {
        try (Log log = Log.open(dir, config(200))) {
            append(log, CompressionType.NONE, NOW, "k", "v1");
            append(log, CompressionType.NONE, NOW, "k", null);
            append(log, CompressionType.NONE, NOW, "other", "x");
            log.roll();
            cleanAll(log, NOW);
            assertEquals(List.of(new Row(1, "k", null), new Row(2, "other", "x")), rows(log));
            RecordBatch tombstoneBatch = batches(log).get(0);
            assertTrue(tombstoneBatch.hasDeleteHorizon());
            assertEquals(NOW + DAY_MS, tombstoneBatch.deleteHorizonMs());
            assertEquals(NOW, tombstoneBatch.records().get(0).timestamp(), "record timestamps survive the horizon stamp");

            cleanAll(log, NOW + DAY_MS - 1);
            assertEquals(List.of(new Row(1, "k", null), new Row(2, "other", "x")), rows(log), "horizon not reached");

            CleanResult result = cleanAll(log, NOW + DAY_MS);
            assertEquals(1, result.tombstonesRemoved());
            assertEquals(List.of(new Row(2, "other", "x")), rows(log));
        }
    }

    @Test
    void activeSegmentAndUncleanableTailAreNeverTouched() {
        try (Log log = Log.open(dir, config(150))) {
            for (int i = 0; i < 12; i++) {
                append(log, CompressionType.NONE, NOW, "k", "v" + i);
            }
            // Nothing past offset 6 may be cleaned (e.g. the high watermark).
            CLEANER.clean(log, 0, 6, NOW);
            // Two batches per segment: [0,1] [2,3] [4,5] are cleanable, so of them only offset 5 (the
            // latest "k" below 6) remains, and everything from 6 on is as written.
            List<Long> offsets = rows(log).stream().map(Row::offset).toList();
            assertEquals(List.of(5L, 6L, 7L, 8L, 9L, 10L, 11L), offsets);
            assertTrue(log.activeSegment().baseOffset() > 6);
        }
    }

    private static void appendTxn(Log log, long producerId, int sequence, String key, String value) {
        ByteBuffer txn = new RecordBatchBuilder(ByteBuffer.allocate(256), CompressionType.NONE, 0)
                .producer(producerId, (short) 1, sequence).transactional(true)
                .append(NOW, CleanerTestLog.bytes(key), CleanerTestLog.bytes(value)).build();
        log.append(txn, 0, NOW);
    }

    private static void marker(Log log, long producerId, ControlRecordType type) {
        log.appendTransactionMarker(producerId, (short) 1, new EndTransactionMarker(type, 3), 0, NOW);
    }

    @Test
    void abortedDataGoesWithoutShadowingAndCommittedDataIsCompacted() {
        try (Log log = Log.open(dir, config(400))) {
            append(log, CompressionType.NONE, NOW, "k", "v0");   // 0
            appendTxn(log, 7, 0, "k", "aborted");                // 1
            marker(log, 7, ControlRecordType.ABORT);             // 2
            appendTxn(log, 8, 0, "j", "old");                    // 3
            appendTxn(log, 8, 1, "j", "committed");              // 4
            marker(log, 8, ControlRecordType.COMMIT);            // 5
            log.roll();
            CleanResult result = cleanAll(log, NOW);
            assertEquals(List.of(new Row(0, "k", "v0"), new Row(4, "j", "committed")), rows(log));
            assertEquals(1, result.abortedRecordsRemoved());
            List<RecordBatch> kept = batches(log);
            assertTrue(kept.stream().filter(RecordBatch::isControl).count() == 2, "both markers stay: " + kept);
            RecordBatch committed = kept.stream().filter(b -> b.baseOffset() == 4).findFirst().orElseThrow();
            assertTrue(committed.isTransactional(), "a compacted transactional batch stays transactional");
            // The ABORT marker had data in this pass, so its entry moved into the cleaned segment's index.
            assertEquals(List.of(new io.kraft.storage.log.AbortedTxn(7, 1, 2, 3)),
                    log.collectAbortedTransactions(0, log.logEndOffset()));
        }
    }

    @Test
    void markersWithoutDataGoAfterTheirDeleteHorizon() {
        try (Log log = Log.open(dir, config(400))) {
            appendTxn(log, 7, 0, "k", "aborted");                // 0
            marker(log, 7, ControlRecordType.ABORT);             // 1
            appendTxn(log, 7, 1, "k", "committed");              // 2
            marker(log, 7, ControlRecordType.COMMIT);            // 3 (producer 7's last batch: stays)
            append(log, CompressionType.NONE, NOW, "k", "plain"); // 4 shadows 2
            log.roll();
            cleanAll(log, NOW);                                   // aborted data and shadowed data go
            assertEquals(List.of(new Row(4, "k", "plain")), rows(log));
            assertEquals(2, batches(log).stream().filter(RecordBatch::isControl).count());
            cleanAll(log, NOW + 1);                               // no data left: markers get a horizon
            List<RecordBatch> stamped = batches(log).stream().filter(RecordBatch::isControl).toList();
            assertEquals(2, stamped.size());
            assertTrue(stamped.get(0).hasDeleteHorizon(), "the ABORT marker waits out delete.retention.ms");
            assertEquals(NOW + 1 + DAY_MS, stamped.get(0).deleteHorizonMs());
            assertEquals(List.of(), log.collectAbortedTransactions(0, log.logEndOffset()),
                    "an index entry stays only while data of its transaction does");
            cleanAll(log, NOW + 1 + DAY_MS);
            List<RecordBatch> left = batches(log);
            assertEquals(List.of(3L, 4L), left.stream().map(RecordBatch::baseOffset).toList(),
                    "the ABORT marker went; the COMMIT marker is producer 7's last batch");
            assertEquals(EndTransactionMarker.fromBatch(left.get(0)).type(), ControlRecordType.COMMIT);
        }
    }

    @Test
    void idempotentProducersLastBatchSurvivesEvenWhenEmptied() {
        try (Log log = Log.open(dir, config(400))) {
            appendIdempotent(log, 42, 0, NOW, "k", "v0", "j", "w0");   // 0-1
            appendIdempotent(log, 42, 2, NOW, "k", "v1");              // 2, emptied but last of producer 42
            append(log, CompressionType.NONE, NOW, "k", "v2");         // 3
            log.roll();
            cleanAll(log, NOW);
            List<RecordBatch> kept = batches(log);
            RecordBatch last42 = kept.stream().filter(b -> b.producerId() == 42 && b.baseOffset() == 2).findFirst()
                    .orElseThrow(() -> new AssertionError("producer 42's last batch was dropped: " + kept));
            assertEquals(0, last42.recordCount());
            assertEquals(2, last42.lastOffset());
            assertEquals(2, last42.baseSequence());
            assertEquals(List.of(new Row(1, "j", "w0"), new Row(3, "k", "v2")), rows(log));
        }
    }

    @Test
    void recordsYoungerThanTheMinCompactionLagAreLeftAlone() {
        long hourMs = 3600_000L;
        LogConfig lagged = config(200).toBuilder().minCompactionLagMs(hourMs).build();
        try (Log log = Log.open(dir, lagged)) {
            append(log, CompressionType.NONE, NOW, "k", "old");
            append(log, CompressionType.NONE, NOW, "k", "mid");
            append(log, CompressionType.NONE, NOW + hourMs, "k", "new");
            log.roll();
            List<Row> before = rows(log);
            assertEquals(0, cleanAll(log, NOW + hourMs / 2).segmentsCleaned(), "every record is younger than the lag");
            assertEquals(before, rows(log));
            // An hour after the first two records their segments may be cleaned; the third is still young,
            // so "mid" cannot be shadowed by it yet and stays.
            cleanAll(log, NOW + hourMs + 1);
            assertEquals(List.of(new Row(1, "k", "mid"), new Row(2, "k", "new")), rows(log));
            cleanAll(log, NOW + 2 * hourMs + 1);
            assertEquals(List.of(new Row(2, "k", "new")), rows(log));
        }
    }

    @Test
    void dirtyRatioCountsOnlyBytesPastTheLastCleaning() {
        try (Log log = Log.open(dir, config(200))) {
            for (int i = 0; i < 10; i++) {
                append(log, CompressionType.NONE, NOW, "k" + (i % 2), "v" + i);
            }
            log.roll();
            assertEquals(1.0, LogCleaner.dirtyRatio(log, 0, log.logEndOffset(), NOW), 1e-9);
            CleanResult result = cleanAll(log, NOW);
            assertEquals(0.0, LogCleaner.dirtyRatio(log, result.nextDirtyOffset(), log.logEndOffset(), NOW), 1e-9);
            for (int i = 0; i < 10; i++) {
                append(log, CompressionType.NONE, NOW, "k" + (i % 2), "w" + i);
            }
            log.roll();
            double ratio = LogCleaner.dirtyRatio(log, result.nextDirtyOffset(), log.logEndOffset(), NOW);
            assertTrue(ratio > 0.5 && ratio < 1.0, "ratio " + ratio);
        }
    }

    @Test
    void smallOffsetMapCleansInSeveralPasses() {
        LogCleaner small = new LogCleaner(24 * 8); // room for 7 keys
        try (Log log = Log.open(dir, config(300))) {
            for (int round = 0; round < 3; round++) {
                for (int k = 0; k < 10; k++) {
                    append(log, CompressionType.NONE, NOW, "k" + k, "r" + round);
                }
            }
            log.roll();
            long dirty = 0;
            int passes = 0;
            while (dirty < log.logEndOffset() - 0 && passes < 20) {
                CleanResult result = small.clean(log, dirty, log.logEndOffset(), NOW);
                assertTrue(result.nextDirtyOffset() > dirty, "each pass makes progress");
                dirty = result.nextDirtyOffset();
                passes++;
            }
            assertTrue(passes > 1, "a 7-key map cannot map 30 records in one pass");
            Map<String, String> latest = rows(log).stream()
                    .collect(Collectors.toMap(Row::key, Row::value, (a, b) -> b, TreeMap::new));
            assertEquals(10, latest.size());
            latest.values().forEach(v -> assertEquals("r2", v));
            assertEquals(10, rows(log).size());
        }
    }

    @Test
    void corruptSegmentStopsCleaningAndLeavesTheLogAsItWas() throws IOException {
        try (Log log = Log.open(dir, config(200))) {
            for (int i = 0; i < 6; i++) {
                append(log, CompressionType.NONE, NOW, "k", "v" + i);
            }
            log.roll();
            LogSegment first = log.segments().get(0);
            try (FileChannel ch = FileChannel.open(first.logFile(), StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xFF}), RecordBatch.HEADER_SIZE + 3); // inside the records
            }
            int segmentsBefore = log.numberOfSegments();
            CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> cleanAll(log, NOW));
            assertTrue(e.getMessage().contains("CRC"), e.getMessage());
            assertEquals(segmentsBefore, log.numberOfSegments());
            try (var files = java.nio.file.Files.list(dir)) {
                assertFalse(files.anyMatch(p -> p.toString().endsWith(".cleaned")), "no cleaned leftovers");
            }
        }
    }
}
