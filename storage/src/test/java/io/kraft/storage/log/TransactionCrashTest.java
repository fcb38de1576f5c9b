package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.record.ControlRecordType;
import io.kraft.storage.record.EndTransactionMarker;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random transactions (several producers interleaving data, commits and aborts over small segments), then a
 * crash with a torn tail in the active segment and its {@code .txnindex}: reopening must leave exactly the aborted
 * transactions whose markers survived, with the entries they had, and the last stable offset the surviving batches
 * give. {@code -Dkraft.seed=N} replays one case, {@code -Dkraft.seeds=N} runs more.
 */
class TransactionCrashTest {
    private static final int CASES = Integer.getInteger("kraft.seeds", 60);
    private static final long NOW = 1_700_000_000_000L;

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path root;

    /** What one append wrote: a producer's transactional data, or its marker. */
    private record Event(long firstOffset, long lastOffset, long producerId, ControlRecordType marker) {
    }

    @Test
    void aTornTailLeavesTheTxnIndexAndTheLastStableOffsetTheSurvivingBatchesGive() throws Exception {
        Long replay = Long.getLong("kraft.seed");
        long master = replay != null ? replay : new Random().nextLong();
        Random seeds = new Random(master);
        int count = replay != null ? 1 : CASES;
        for (int i = 0; i < count; i++) {
            long seed = replay != null ? replay : seeds.nextLong();
            try {
                crashAndRecover(root.resolve("case-" + i), seed);
            } catch (Throwable t) {
                System.err.println("TransactionCrashTest failed with seed " + seed + "; replay with -Dkraft.seed="
                        + seed);
                throw new AssertionError("case failed with seed " + seed + " (replay: -Dkraft.seed=" + seed + "): "
                        + t, t);
            }
        }
    }

    private void crashAndRecover(Path dir, long seed) throws Exception {
        Random random = new Random(seed);
        LogConfig config = LogConfig.builder().segmentBytes(600 + random.nextInt(1500))
                .indexIntervalBytes(random.nextInt(200)).fileDeleteDelayMs(0).build();
        Log log = Log.open(dir, config);
        List<Event> events = new ArrayList<>();
        Map<Long, Integer> sequences = new HashMap<>();
        Map<Long, Boolean> open = new HashMap<>();
        int appends = 10 + random.nextInt(60);
        for (int i = 0; i < appends; i++) {
            long producer = 1 + random.nextInt(4);
            if (Boolean.TRUE.equals(open.get(producer)) && random.nextInt(3) == 0) {
                ControlRecordType type = random.nextBoolean() ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
                long offset = log.appendTransactionMarker(producer, (short) 0, new EndTransactionMarker(type, 0), 0,
                        NOW).firstOffset();
                events.add(new Event(offset, offset, producer, type));
                open.put(producer, false);
            } else {
                int records = 1 + random.nextInt(4);
                int sequence = sequences.getOrDefault(producer, 0);
                AppendInfo info = log.append(TransactionLogTest.txnBatch(producer, (short) 0, sequence, records), 0,
                        NOW);
                sequences.put(producer, sequence + records);
                events.add(new Event(info.firstOffset(), info.lastOffset(), producer, null));
                open.put(producer, true);
            }
            if (random.nextInt(12) == 0) {
                log.flush();
            }
        }
        List<AbortedTxn> before = log.collectAbortedTransactions(0, log.logEndOffset());
        long recoveryPoint = log.recoveryPoint();
        LogSegment active = log.activeSegment();
        Path activeLog = active.logFile();
        Path activeTxnIndex = active.txnIndex().file();
        // Only what was never flushed can be lost: the bytes of the active segment past the recovery point.
        int unflushedBytes = 0;
        if (recoveryPoint < log.logEndOffset()) {
            FileSlice unflushed = active.read(Math.max(recoveryPoint, active.baseOffset()), Integer.MAX_VALUE,
                    active.sizeBytes(), false);
            unflushedBytes = unflushed == null ? 0 : (int) (active.sizeBytes() - unflushed.position());
        }
        log.closeHandlers();
        tear(activeLog, random, Math.min(200, unflushedBytes));
        if (Files.exists(activeTxnIndex) && random.nextBoolean()) {
            tear(activeTxnIndex, random, TransactionIndex.ENTRY_SIZE_BYTES * 2);
        }

        try (Log reopened = Log.open(dir, config, recoveryPoint, 0, false)) {
            long end = reopened.logEndOffset();
            assertTrue(end >= recoveryPoint, "nothing below the recovery point is lost");
            List<AbortedTxn> expected = before.stream().filter(txn -> txn.lastOffset() < end).toList();
            assertEquals(expected, reopened.collectAbortedTransactions(0, end));
            assertEquals(expectedLastStableOffset(events, end), reopened.lastStableOffset(end));
            // Appends go on: a new abort lands after the survivors.
            long producer = 9;
            reopened.append(TransactionLogTest.txnBatch(producer, (short) 0, 0, 1), 0, NOW);
            reopened.appendTransactionMarker(producer, (short) 0, new EndTransactionMarker(ControlRecordType.ABORT, 0),
                    0, NOW);
            assertEquals(expected.size() + 1, reopened.collectAbortedTransactions(0, reopened.logEndOffset()).size());
        }
    }

    /** Cuts up to {@code maxBytes} off the end of {@code file}. */
    private static void tear(Path file, Random random, int maxBytes) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(Math.max(0, raf.length() - random.nextInt(maxBytes + 1)));
        }
    }

    /** The first offset of the oldest transaction still open among the batches below {@code end}, else end. */
    private static long expectedLastStableOffset(List<Event> events, long end) {
        Map<Long, Long> openFirst = new HashMap<>();
        for (Event event : events) {
            if (event.lastOffset() >= end) {
                break;
            }
            if (event.marker() != null) {
                openFirst.remove(event.producerId());
            } else {
                openFirst.putIfAbsent(event.producerId(), event.firstOffset());
            }
        }
        return openFirst.values().stream().min(Long::compare).orElse(end);
    }
}
