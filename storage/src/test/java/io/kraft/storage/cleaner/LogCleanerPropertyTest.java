package io.kraft.storage.cleaner;

import static io.kraft.storage.cleaner.CleanerTestLog.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.cleaner.CleanerTestLog.Row;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.MemoryBackedTempDirFactory;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatchBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random keyed writes and tombstones, cleaned at random points with a random uncleanable bound and a
 * clock that moves past delete horizons, checked against the full write history after every pass:
 * survivors are unchanged at their original offsets, every key's latest value remains, the cleaned
 * prefix holds each key once, a dropped tombstone takes its key's older values with it, and a reopen
 * reads the same log. {@code -Dkraft.seed=N} replays one seed.
 */
class LogCleanerPropertyTest {
    private static final long DELETE_RETENTION_MS = 10_000;
    private static final CompressionType[] CODECS = CompressionType.values();

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path root;

    @Test
    void randomKeyedWorkloadsKeepTheLatestValueOfEveryKey() throws IOException {
        String replay = System.getProperty("kraft.seed");
        if (replay != null) {
            runSeed(Long.parseLong(replay));
            return;
        }
        for (long seed = 0; seed < 60; seed++) {
            runSeed(seed);
        }
    }

    private void runSeed(long seed) throws IOException {
        try {
            runScenario(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("cleaner property failed for seed " + seed + " (replay with -Dkraft.seed=" + seed
                    + "): " + e.getMessage(), e);
        }
    }

    private void runScenario(long seed) throws IOException {
        Random random = new Random(seed);
        Path dir = Files.createDirectory(root.resolve("seed-" + seed));
        LogConfig config = LogConfig.defaults().toBuilder().segmentBytes(300 + random.nextInt(700)).compact(true)
                .delete(false).deleteRetentionMs(DELETE_RETENTION_MS).build();
        LogCleaner cleaner = new LogCleaner(24 * (8 + random.nextInt(200)));
        int keySpace = 2 + random.nextInt(30);
        List<Row> history = new ArrayList<>();
        long nowMs = 1_000_000;
        long dirtyOffset = 0;
        long uniqueBelow = 0;
        Log log = Log.open(dir, config);
        try {
            int ops = 150 + random.nextInt(150);
            for (int op = 0; op < ops; op++) {
                int choice = random.nextInt(100);
                if (choice < 70) {
                    appendRandomBatch(log, random, keySpace, nowMs, history);
                } else if (choice < 78) {
                    log.roll();
                } else if (choice < 93) {
                    long bound = log.logStartOffset() + (long) (random.nextDouble() * 1.2
                            * (log.logEndOffset() - log.logStartOffset() + 1));
                    long endBefore = log.logEndOffset();
                    CleanResult result = cleaner.clean(log, dirtyOffset, bound, nowMs);
                    assertEquals(endBefore, log.logEndOffset(), "cleaning never moves the log end");
                    assertTrue(result.nextDirtyOffset() >= dirtyOffset, "the dirty offset never goes back");
                    if (result.segmentsCleaned() > 0 && result.nextDirtyOffset() > uniqueBelow) {
                        uniqueBelow = result.nextDirtyOffset();
                    }
                    dirtyOffset = result.nextDirtyOffset();
                    checkInvariants(log, history, uniqueBelow);
                } else if (choice < 97) {
                    nowMs += random.nextInt((int) DELETE_RETENTION_MS);
                } else {
                    List<Row> before = rows(log);
                    log.close();
                    log = Log.open(dir, config);
                    assertEquals(before, rows(log), "a reopen reads the same log");
                }
            }
            nowMs += 2 * DELETE_RETENTION_MS;
            log.roll();
            // Two passes: the first stamps delete horizons on the newest tombstones, the second runs
            // after those horizons and must leave exactly the live keys.
            dirtyOffset = cleaner.clean(log, dirtyOffset, log.logEndOffset(), nowMs).nextDirtyOffset();
            nowMs += 2 * DELETE_RETENTION_MS;
            LogCleaner roomy = new LogCleaner(1 << 20);
            roomy.clean(log, 0, log.logEndOffset(), nowMs);
            roomy.clean(log, 0, log.logEndOffset(), nowMs + 2 * DELETE_RETENTION_MS);
            checkInvariants(log, history, log.logEndOffset());
            Map<String, Row> latest = latestByKey(history);
            Set<Row> live = new HashSet<>();
            for (Row row : latest.values()) {
                if (row.value() != null) {
                    live.add(row);
                }
            }
            assertEquals(live, new HashSet<>(rows(log)), "after the horizons only each live key's latest value is left");
        } finally {
            log.close();
        }
    }

    private static void appendRandomBatch(Log log, Random random, int keySpace, long nowMs, List<Row> history) {
        CompressionType codec = CODECS[random.nextInt(CODECS.length)];
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(128), codec, 0);
        int count = 1 + random.nextInt(5);
        String[] keys = new String[count];
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            keys[i] = "k" + random.nextInt(keySpace);
            values[i] = random.nextInt(8) == 0 ? null : "v" + random.nextInt(1_000_000);
            builder.append(nowMs, CleanerTestLog.bytes(keys[i]), CleanerTestLog.bytes(values[i]));
        }
        long first = log.append(builder.build(), 0, nowMs).firstOffset();
        for (int i = 0; i < count; i++) {
            history.add(new Row(first + i, keys[i], values[i]));
        }
    }

    private static Map<String, Row> latestByKey(List<Row> history) {
        Map<String, Row> latest = new HashMap<>();
        for (Row row : history) {
            latest.put(row.key(), row);
        }
        return latest;
    }

    private static void checkInvariants(Log log, List<Row> history, long uniqueBelow) {
        List<Row> rows = rows(log);
        LogCleanerCrashTest.assertValidAgainst(history, rows);
        Set<Row> present = new HashSet<>(rows);
        for (Row latest : latestByKey(history).values()) {
            if (latest.value() == null && !present.contains(latest)) {
                for (Row row : rows) {
                    assertFalse(row.key().equals(latest.key()),
                            "tombstone " + latest + " was dropped while an older value survives: " + row);
                }
            }
        }
        Set<String> seen = new HashSet<>();
        for (Row row : rows) {
            if (row.offset() < uniqueBelow) {
                assertTrue(seen.add(row.key()), "key " + row.key() + " appears twice below " + uniqueBelow);
            }
        }
    }
}
