package io.kraft.storage.cleaner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kraft.storage.log.AbortedTxn;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.MemoryBackedTempDirFactory;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.ControlRecordType;
import io.kraft.storage.record.EndTransactionMarker;
import io.kraft.storage.record.Record;
import io.kraft.storage.record.RecordBatch;
import io.kraft.storage.record.RecordBatchBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random keyed writes, plain and transactional (several producers committing and aborting), cleaned at random
 * points up to the last stable offset: what a read_committed consumer reads (it drops aborted producers' batches
 * as the Java consumer does, from the aborted transactions the log names) never holds an aborted value and always
 * holds every key's latest committed value; once every transaction is complete and the horizons passed, no aborted
 * record is left at all. {@code -Dkraft.seed=N} replays one seed, {@code -Dkraft.seeds=N} runs more.
 */
class TransactionalCleanerPropertyTest {
    private static final long DELETE_RETENTION_MS = 10_000;

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path root;

    /** One record written: its key and value, its producer (-1 plain) and transaction number (-1 plain). */
    private record Written(long offset, String key, String value, long producerId, int txn) {
    }

    @Test
    void readCommittedViewsSurviveCleaningAndAbortedRecordsGo() throws IOException {
        String replay = System.getProperty("kraft.seed");
        if (replay != null) {
            runSeed(Long.parseLong(replay));
            return;
        }
        long seeds = Long.getLong("kraft.seeds", 20);
        for (long seed = 0; seed < seeds; seed++) {
            runSeed(seed);
        }
    }

    private void runSeed(long seed) throws IOException {
        try {
            runScenario(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("transactional cleaner property failed for seed " + seed
                    + " (replay with -Dkraft.seed=" + seed + "): " + e.getMessage(), e);
        }
    }

    private void runScenario(long seed) throws IOException {
        Random random = new Random(seed);
        Path dir = Files.createDirectory(root.resolve("seed-" + seed));
        LogConfig config = LogConfig.defaults().toBuilder().segmentBytes(300 + random.nextInt(600)).compact(true)
                .delete(false).deleteRetentionMs(DELETE_RETENTION_MS).build();
        LogCleaner cleaner = new LogCleaner(1 << 16);
        int keySpace = 2 + random.nextInt(12);
        List<Written> history = new ArrayList<>();
        Map<Integer, Boolean> outcomes = new HashMap<>();  // txn → committed
        Map<Long, Integer> openTxn = new HashMap<>();       // producer → its open txn number
        Map<Long, Integer> sequences = new HashMap<>();
        int[] nextTxn = {0};
        int[] nextValue = {0};
        long nowMs = 1_000_000;
        try (Log log = Log.open(dir, config)) {
            int ops = 100 + random.nextInt(150);
            for (int op = 0; op < ops; op++) {
                int choice = random.nextInt(100);
                long producer = 1 + random.nextInt(3);
                if (choice < 30) {
                    append(log, -1, -1, 0, random, keySpace, nowMs, nextValue, history);
                } else if (choice < 65) {
                    int txn = openTxn.computeIfAbsent(producer, p -> nextTxn[0]++);
                    int sequence = sequences.getOrDefault(producer, 0);
                    sequences.put(producer, sequence + append(log, producer, txn, sequence, random, keySpace, nowMs,
                            nextValue, history));
                } else if (choice < 80) {
                    Integer txn = openTxn.remove(producer);
                    if (txn != null) {
                        boolean commit = random.nextBoolean();
                        outcomes.put(txn, commit);
                        log.appendTransactionMarker(producer, (short) 0, new EndTransactionMarker(commit
                                ? ControlRecordType.COMMIT : ControlRecordType.ABORT, 0), 0, nowMs);
                    }
                } else if (choice < 88) {
                    log.roll();
                } else if (choice < 96) {
                    long lso = log.lastStableOffset(log.logEndOffset());
                    cleaner.clean(log, log.logStartOffset(), lso, nowMs);
                    check(log, history, outcomes);
                } else {
                    nowMs += random.nextInt((int) DELETE_RETENTION_MS);
                }
            }
            for (Map.Entry<Long, Integer> open : openTxn.entrySet()) {
                outcomes.put(open.getValue(), false);
                log.appendTransactionMarker(open.getKey(), (short) 0,
                        new EndTransactionMarker(ControlRecordType.ABORT, 0), 0, nowMs);
            }
            log.roll();
            for (int pass = 0; pass < 3; pass++) {
                nowMs += 2 * DELETE_RETENTION_MS;
                cleaner.clean(log, log.logStartOffset(), log.lastStableOffset(log.logEndOffset()), nowMs);
                check(log, history, outcomes);
            }
            Set<String> abortedValues = new HashSet<>();
            for (Written written : history) {
                if (written.txn() >= 0 && !outcomes.get(written.txn())) {
                    abortedValues.add(written.value());
                }
            }
            for (RecordBatch batch : CleanerTestLog.batches(log)) {
                if (!batch.isControl()) {
                    for (Record record : batch.records()) {
                        assertFalse(abortedValues.contains(CleanerTestLog.string(record.value())),
                                "aborted record at offset " + record.offset() + " was left");
                    }
                }
            }
        }
    }

    /** Appends one batch of 1-3 keyed records; returns the record count. */
    private static int append(Log log, long producer, int txn, int sequence, Random random, int keySpace, long nowMs,
                              int[] nextValue, List<Written> history) {
        int count = 1 + random.nextInt(3);
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(1024), CompressionType.NONE, 0);
        if (producer >= 0) {
            builder.producer(producer, (short) 0, sequence).transactional(true);
        }
        List<String[]> pairs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = "k" + random.nextInt(keySpace);
            String value = "v" + nextValue[0]++;
            builder.append(nowMs, CleanerTestLog.bytes(key), CleanerTestLog.bytes(value));
            pairs.add(new String[] {key, value});
        }
        long first = log.append(builder.build(), 0, nowMs).firstOffset();
        for (int i = 0; i < count; i++) {
            history.add(new Written(first + i, pairs.get(i)[0], pairs.get(i)[1], producer, txn));
        }
        return count;
    }

    /** The read_committed view holds no aborted value and every key's latest committed value below the LSO. */
    private static void check(Log log, List<Written> history, Map<Integer, Boolean> outcomes) {
        long lso = log.lastStableOffset(log.logEndOffset());
        Map<String, String> view = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (String[] row : readCommitted(log, lso)) {
            view.put(row[0], row[1]);
            seen.add(row[1]);
        }
        Map<String, String> expected = new HashMap<>();
        for (Written written : history) {
            if (written.offset() >= lso) {
                break;
            }
            boolean committed = written.txn() < 0 || Boolean.TRUE.equals(outcomes.get(written.txn()));
            if (committed) {
                expected.put(written.key(), written.value());
            } else {
                assertFalse(seen.contains(written.value()), "read_committed saw the aborted " + written);
            }
        }
        assertEquals(expected, view, "the latest committed value of each key below the LSO " + lso);
    }

    /** What the Java consumer keeps of the log below {@code lso} with isolation.level=read_committed. */
    private static List<String[]> readCommitted(Log log, long lso) {
        PriorityQueue<AbortedTxn> aborted = new PriorityQueue<>(Comparator.comparingLong(AbortedTxn::firstOffset));
        aborted.addAll(log.collectAbortedTransactions(log.logStartOffset(), lso));
        Set<Long> abortedProducers = new HashSet<>();
        List<String[]> rows = new ArrayList<>();
        for (RecordBatch batch : CleanerTestLog.batches(log)) {
            if (batch.lastOffset() >= lso) {
                break;
            }
            if (batch.isTransactional()) {
                while (!aborted.isEmpty() && aborted.peek().firstOffset() <= batch.lastOffset()) {
                    abortedProducers.add(aborted.poll().producerId());
                }
            }
            if (batch.isControl()) {
                if (EndTransactionMarker.fromBatch(batch).type() == ControlRecordType.ABORT) {
                    abortedProducers.remove(batch.producerId());
                }
                continue;
            }
            if (batch.isTransactional() && abortedProducers.contains(batch.producerId())) {
                continue;
            }
            for (Record record : batch.records()) {
                rows.add(new String[] {CleanerTestLog.string(record.key()), CleanerTestLog.string(record.value())});
            }
        }
        return rows;
    }
}
