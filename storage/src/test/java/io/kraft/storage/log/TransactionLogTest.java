package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.producer.InvalidProducerEpochException;
import io.kraft.storage.log.producer.InvalidTxnStateException;
import io.kraft.storage.log.producer.ProducerStateEntry;
import io.kraft.storage.log.producer.TransactionCoordinatorFencedException;
import io.kraft.storage.record.ControlRecordType;
import io.kraft.storage.record.EndTransactionMarker;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions in one partition log (KIP-98): the last stable offset through open, committed and aborted
 * transactions and high watermark moves, the {@code .txnindex} (its bytes, its search, truncation, recovery after a
 * torn tail), the epochs a marker is checked against, and the producer snapshot carrying an open transaction.
 */
class TransactionLogTest {
    private static final long NOW = 1_700_000_000_000L;

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path dir;

    private static LogConfig small() {
        return LogConfig.builder().segmentBytes(1024).indexIntervalBytes(100).maxIndexBytes(1024).fileDeleteDelayMs(0)
                .build();
    }

    /** A transactional batch (kafka-clients' own) of {@code count} records from {@code sequence}. */
    static ByteBuffer txnBatch(long producerId, short epoch, int sequence, int count) {
        return txnBatch(producerId, epoch, sequence, count, NOW);
    }

    static ByteBuffer txnBatch(long producerId, short epoch, int sequence, int count, long timestampMs) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(timestampMs, ("k" + (sequence + i)).getBytes(StandardCharsets.UTF_8),
                    ("p" + producerId + "-s" + (sequence + i)).getBytes(StandardCharsets.UTF_8));
        }
        return TestBatches.copy(MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, epoch, sequence,
                records).buffer());
    }

    private static long marker(Log log, long producerId, short epoch, ControlRecordType type, int coordinatorEpoch) {
        return log.appendTransactionMarker(producerId, epoch, new EndTransactionMarker(type, coordinatorEpoch), 0, NOW)
                .firstOffset();
    }

    @Test
    void lastStableOffsetFollowsOpenTransactionsMarkersAndTheHighWatermark() {
        try (Log log = Log.open(dir, small())) {
            log.append(TestBatches.batch(2, NOW), 0, NOW);                   // 0-1 plain
            assertEquals(2, log.lastStableOffset(2));
            log.append(txnBatch(7, (short) 0, 0, 3), 0, NOW);                // 2-4 producer 7 opens
            log.append(txnBatch(8, (short) 0, 0, 2), 0, NOW);                // 5-6 producer 8 opens
            assertEquals(2, log.lastStableOffset(7));
            assertEquals(1, log.lastStableOffset(1), "never above the high watermark");
            long commit7 = marker(log, 7, (short) 0, ControlRecordType.COMMIT, 0); // 7
            assertEquals(7, commit7);
            // Producer 7's marker is not replicated yet: the LSO stays at its first offset.
            assertEquals(2, log.lastStableOffset(7));
            // Once the high watermark passes the marker, the oldest unstable transaction is producer 8's.
            assertEquals(5, log.lastStableOffset(8));
            long abort8 = marker(log, 8, (short) 0, ControlRecordType.ABORT, 0);  // 8
            assertEquals(5, log.lastStableOffset(8));
            assertEquals(9, log.lastStableOffset(9));
            assertEquals(Long.MAX_VALUE, log.firstUnstableOffset());
            assertEquals(List.of(new AbortedTxn(8, 5, abort8, 9)), log.collectAbortedTransactions(0, 9));
            assertEquals(List.of(), log.collectAbortedTransactions(0, 5), "the aborted data starts at 5");
            assertEquals(List.of(), log.collectAbortedTransactions(9, 20), "its marker is before 9");
        }
    }

    @Test
    void txnIndexHoldsKafkasThirtyFourByteEntries() throws Exception {
        try (Log log = Log.open(dir, small())) {
            log.append(txnBatch(7, (short) 2, 0, 2), 0, NOW);                // 0-1 producer 7
            log.append(txnBatch(9, (short) 0, 0, 1), 0, NOW);                // 2 producer 9 stays open
            marker(log, 7, (short) 2, ControlRecordType.ABORT, 5);            // 3
            Path file = LogFileNames.txnIndexFile(dir, 0, "");
            byte[] bytes = Files.readAllBytes(file);
            assertEquals(34, bytes.length);
            ByteBuffer expected = ByteBuffer.allocate(34).putShort((short) 0).putLong(7).putLong(0).putLong(3)
                    .putLong(2); // the LSO after the marker: producer 9's open transaction at 2
            assertArrayEquals(expected.array(), bytes);
            assertFalse(Files.exists(LogFileNames.txnIndexFile(dir, 99, "")));
        }
    }

    @Test
    void segmentsWithoutAbortsHaveNoTxnIndexFile() {
        try (Log log = Log.open(dir, small())) {
            log.append(txnBatch(7, (short) 0, 0, 2), 0, NOW);
            marker(log, 7, (short) 0, ControlRecordType.COMMIT, 0);
            assertFalse(Files.exists(LogFileNames.txnIndexFile(dir, 0, "")));
        }
    }

    @Test
    void abortedTransactionsAreCollectedFromTheFetchSegmentOnUntilTheUpperBoundIsStable() {
        try (Log log = Log.open(dir, small())) {
            // Producer 1 aborts across segments; producer 2 aborts later; producer 3 commits.
            log.append(txnBatch(1, (short) 0, 0, 5), 0, NOW);
            log.roll();
            log.append(txnBatch(3, (short) 0, 0, 5), 0, NOW);
            log.roll();
            long abort1 = marker(log, 1, (short) 0, ControlRecordType.ABORT, 0);
            long commit3 = marker(log, 3, (short) 0, ControlRecordType.COMMIT, 0);
            log.append(txnBatch(2, (short) 0, 0, 2), 0, NOW);
            long abort2 = marker(log, 2, (short) 0, ControlRecordType.ABORT, 0);
            assertEquals(3, log.numberOfSegments());
            // Producer 1's entry lives in the third segment (with its marker) and records the LSO then: producer 3's
            // open transaction at 5.
            AbortedTxn first = new AbortedTxn(1, 0, abort1, 5);
            AbortedTxn second = new AbortedTxn(2, commit3 + 1, abort2, abort2 + 1);
            assertEquals(List.of(first, second), log.collectAbortedTransactions(0, log.logEndOffset()));
            assertEquals(List.of(first), log.collectAbortedTransactions(3, 7));
            assertEquals(List.of(second), log.collectAbortedTransactions(abort1 + 1, log.logEndOffset()));
            // A read_committed read names what overlaps the bytes it returns.
            CommittedRead read = log.readCommitted(0, Integer.MAX_VALUE, log.logEndOffset(), true);
            assertEquals(List.of(first), read.abortedTransactions(), "the read stops at the end of the first segment");
            assertEquals(5, TestBatches.offsets(readBytes(read)).size());
            CommittedRead bounded = log.readCommitted(abort1 + 1, Integer.MAX_VALUE, abort2, true);
            assertEquals(List.of(second), bounded.abortedTransactions());
        }
    }

    private static ByteBuffer readBytes(CommittedRead read) {
        try {
            return read.result().records().readFully();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void markersWithStaleEpochsAreRefused() {
        try (Log log = Log.open(dir, small())) {
            log.append(txnBatch(7, (short) 3, 0, 1), 0, NOW);
            InvalidProducerEpochException stale = assertThrows(InvalidProducerEpochException.class,
                    () -> marker(log, 7, (short) 2, ControlRecordType.COMMIT, 0));
            assertEquals(Errors.INVALID_PRODUCER_EPOCH, stale.error());
            marker(log, 7, (short) 3, ControlRecordType.COMMIT, 4);
            TransactionCoordinatorFencedException fenced = assertThrows(TransactionCoordinatorFencedException.class,
                    () -> marker(log, 7, (short) 3, ControlRecordType.ABORT, 3));
            assertEquals(Errors.TRANSACTION_COORDINATOR_FENCED, fenced.error());
            long end = log.logEndOffset();
            assertEquals(2, end, "nothing written by the refused markers");
            ProducerStateEntry entry = log.producerState(7).orElseThrow();
            assertEquals(4, entry.coordinatorEpoch());
            assertFalse(entry.hasOpenTransaction());
            // A newer epoch (the coordinator fenced the producer) is accepted.
            marker(log, 7, (short) 4, ControlRecordType.ABORT, 4);
            assertEquals(4, log.producerState(7).orElseThrow().producerEpoch());
        }
    }

    @Test
    void producersMayNotWriteMarkersOrLeaveTheirTransaction() {
        try (Log log = Log.open(dir, small())) {
            ByteBuffer fakeMarker = new EndTransactionMarker(ControlRecordType.COMMIT, 0).toBatch(0, 0, 7, (short) 0,
                    NOW);
            InvalidRecordException control = assertThrows(InvalidRecordException.class,
                    () -> log.append(fakeMarker, 0, NOW));
            assertEquals(Errors.INVALID_RECORD, control.error());
            log.append(txnBatch(7, (short) 0, 0, 1), 0, NOW);
            InvalidTxnStateException mixed = assertThrows(InvalidTxnStateException.class,
                    () -> log.append(TestBatches.idempotent(7, (short) 0, 1, 1, NOW), 0, NOW));
            assertEquals(Errors.INVALID_TXN_STATE, mixed.error());
            assertEquals(1, log.logEndOffset());
        }
    }

    @Test
    void truncationCutsTheTxnIndexAndReopensTheTransaction() {
        try (Log log = Log.open(dir, small())) {
            log.append(txnBatch(7, (short) 0, 0, 2), 0, NOW);                // 0-1
            long abort = marker(log, 7, (short) 0, ControlRecordType.ABORT, 0); // 2
            assertEquals(1, log.collectAbortedTransactions(0, 3).size());
            assertTrue(log.truncateTo(abort));
            assertEquals(List.of(), log.collectAbortedTransactions(0, 3));
            assertEquals(0, log.lastStableOffset(2), "producer 7's transaction is open again");
            assertTrue(log.producerState(7).orElseThrow().hasOpenTransaction());
        }
    }

    @Test
    void snapshotsCarryTheOpenTransactionAndTheCoordinatorEpoch() {
        java.util.Map<Long, ProducerStateEntry> written;
        try (Log log = Log.open(dir, small())) {
            log.append(txnBatch(7, (short) 1, 0, 2), 0, NOW);
            marker(log, 7, (short) 1, ControlRecordType.COMMIT, 6);
            log.append(txnBatch(7, (short) 1, 2, 2), 0, NOW);                // 3-4, open again
            log.append(TestBatches.idempotent(8, (short) 0, 0, 1, NOW), 0, NOW);
            written = log.producerState();
        }
        // The snapshot written at close (offset 6) alone gives the state back.
        io.kraft.storage.log.producer.ProducerStateManager loaded = new io.kraft.storage.log.producer
                .ProducerStateManager(dir);
        assertEquals(java.util.OptionalLong.of(6), loaded.loadSnapshot(6));
        assertEquals(written, loaded.producers());
        ProducerStateEntry entry = loaded.producer(7).orElseThrow();
        assertEquals(6, entry.coordinatorEpoch());
        assertEquals(3, entry.currentTxnFirstOffset());
        assertEquals(3, loaded.firstUnstableOffset());
        try (Log log = Log.open(dir, small(), 6, 0, true)) {
            assertEquals(3, log.lastStableOffset(6));
        }
    }

    @Test
    void producersWithAnOpenTransactionDoNotExpire() {
        try (Log log = Log.open(dir, small())) {
            log.append(txnBatch(7, (short) 0, 0, 1), 0, NOW);
            log.append(TestBatches.idempotent(8, (short) 0, 0, 1, NOW), 0, NOW);
            assertEquals(1, log.removeExpiredProducers(NOW + 365L * 24 * 3600 * 1000));
            assertTrue(log.producerState(7).isPresent());
        }
    }

    @Test
    void retentionMayDeleteTheStartOfAnOpenTransactionAndTheLsoStopsAtTheLogStart() {
        LogConfig config = small().toBuilder().retentionMs(1000).build();
        try (Log log = Log.open(dir, config)) {
            log.append(txnBatch(7, (short) 0, 0, 3, NOW - 10_000), 0, NOW);  // 0-2, old
            log.roll();
            log.append(TestBatches.batch(2, NOW), 0, NOW);                   // 3-4
            assertEquals(1, log.deleteExpiredSegments(NOW, log.logEndOffset()));
            assertEquals(3, log.logStartOffset());
            assertEquals(3, log.lastStableOffset(5));
            log.append(txnBatch(7, (short) 0, 3, 1), 0, NOW);                // 5
            long abort = marker(log, 7, (short) 0, ControlRecordType.ABORT, 0);
            // The entry keeps the transaction's first offset, below the log start: a read from the log start sees
            // it, so the consumer drops producer 7's data at 5.
            assertEquals(List.of(new AbortedTxn(7, 0, abort, abort + 1)), log.collectAbortedTransactions(3, abort));
        }
    }

    @Test
    void recoveryAfterATornTailRebuildsTheSameTxnIndex() throws Exception {
        Path indexFile = LogFileNames.txnIndexFile(dir, 0, "");
        byte[] before;
        long end;
        Log log = Log.open(dir, LogConfig.defaults().toBuilder().fileDeleteDelayMs(0).build());
        log.append(txnBatch(1, (short) 0, 0, 3), 0, NOW);
        log.append(txnBatch(2, (short) 0, 0, 3), 0, NOW);
        marker(log, 1, (short) 0, ControlRecordType.ABORT, 0);
        log.append(txnBatch(3, (short) 0, 0, 1), 0, NOW);
        marker(log, 2, (short) 0, ControlRecordType.ABORT, 0);
        marker(log, 3, (short) 0, ControlRecordType.COMMIT, 0);
        end = log.logEndOffset();
        before = Files.readAllBytes(indexFile);
        assertEquals(2 * TransactionIndex.ENTRY_SIZE_BYTES, before.length);
        // A batch half written at the end, and the index garbled as a crash could leave it.
        log.append(txnBatch(4, (short) 0, 0, 2), 0, NOW);
        log.closeHandlers();
        Path segment = LogFileNames.logFile(dir, 0, "");
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.setLength(file.length() - 7);
        }
        try (RandomAccessFile file = new RandomAccessFile(indexFile.toFile(), "rw")) {
            file.setLength(before.length + 11);
        }
        try (Log reopened = Log.open(dir, LogConfig.defaults().toBuilder().fileDeleteDelayMs(0).build(), 0, 0,
                false)) {
            assertEquals(end, reopened.logEndOffset());
            assertArrayEquals(before, Files.readAllBytes(indexFile));
            assertEquals(end, reopened.lastStableOffset(end), "every transaction is complete");
            assertEquals(2, reopened.collectAbortedTransactions(0, end).size());
        }
    }
}
