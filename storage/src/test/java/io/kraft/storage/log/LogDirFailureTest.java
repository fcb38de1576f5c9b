package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.io.FaultInjection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log directory whose disk fills up or fails: the append fails with KAFKA_STORAGE_ERROR, the directory is reported
 * failed once and closed without another byte written, and once the disk is back a reopen keeps every batch written
 * before the failure and cuts the part of the failed one that reached the file.
 */
class LogDirFailureTest {
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final LogConfig CONFIG = LogConfig.builder().segmentBytes(64 * 1024).indexIntervalBytes(100).build();

    @TempDir
    Path logDir;

    private final List<String> failures = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void enableFaultInjection() {
        FaultInjection.setEnabled(true);
    }

    @AfterAll
    static void disableFaultInjection() {
        FaultInjection.setEnabled(false);
    }

    @Test
    void aFullDiskFailsTheAppendAndTheDirectoryAndLosesNothingWrittenBefore() throws Exception {
        byte[] written;
        LogManager manager = LogManager.open(logDir, tp -> CONFIG, (dir, reason) -> failures.add(dir + ": " + reason));
        Log log = manager.getOrCreateLog(ORDERS_0);
        Log other = manager.getOrCreateLog(ORDERS_1);
        for (int i = 0; i < 20; i++) {
            log.append(batch(3, i), 0, 1);
        }
        other.append(batch(2, 0), 0, 1);
        written = bytes(TestBatches.readAll(log));
        long sizeBefore = Files.size(log.activeSegment().logFile());

        arm("ENOSPC");
        LogStorageException full = assertThrows(LogStorageException.class, () -> log.append(batch(5, 99), 0, 1));
        assertEquals(Errors.KAFKA_STORAGE_ERROR, full.error());
        assertTrue(Files.size(log.activeSegment().logFile()) > sizeBefore, "half the batch reached the file");
        assertEquals(60, log.logEndOffset(), "the failed append is not part of the log");
        // A second error in the same directory is not a second failure.
        assertThrows(LogStorageException.class, () -> other.append(batch(1, 99), 0, 1));
        assertEquals(1, failures.size());
        assertTrue(failures.get(0).startsWith(logDir + ": cannot write to "), failures.get(0));
        assertTrue(failures.get(0).contains("No space left on device"), failures.get(0));
        assertTrue(manager.isFailed());

        manager.closeAfterFailure();
        // A request still holding a log of the directory (it raced the directory going offline) gets a storage error,
        // and that is not a second failure.
        LogStorageException offline = assertThrows(LogStorageException.class, () -> other.append(batch(1, 100), 0, 1));
        assertEquals(Errors.KAFKA_STORAGE_ERROR, offline.error());
        assertEquals(1, failures.size());
        manager.close();
        assertFalse(Files.exists(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE)), "never marked clean");

        disarm();
        try (LogManager reopened = LogManager.open(logDir, tp -> CONFIG)) {
            Log recovered = reopened.log(ORDERS_0).orElseThrow();
            assertEquals(60, recovered.logEndOffset(), "the torn half batch is cut");
            assertArrayEquals(written, bytes(TestBatches.readAll(recovered)));
            recovered.append(batch(5, 100), 0, 1);
            assertEquals(65, recovered.logEndOffset());
            assertEquals(2, reopened.log(ORDERS_1).orElseThrow().logEndOffset());
        }
    }

    @Test
    void aFailedFsyncFailsTheDirectoryAndIsNotRetried() throws Exception {
        LogManager manager = LogManager.open(logDir, tp -> CONFIG, (dir, reason) -> failures.add(reason));
        Log log = manager.getOrCreateLog(ORDERS_0);
        log.append(batch(3, 0), 0, 1);
        arm("EIO");
        assertThrows(LogStorageException.class, log::flush);
        assertEquals(1, failures.size());
        assertTrue(failures.get(0).contains("Input/output error"), failures.get(0));
        assertEquals(0, log.recoveryPoint(), "nothing counts as durable");
        manager.close();
        disarm();
        assertFalse(Files.exists(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE)));
        assertTrue(Files.notExists(logDir.resolve(LogManager.RECOVERY_POINT_CHECKPOINT))
                || new OffsetCheckpointFile(logDir.resolve(LogManager.RECOVERY_POINT_CHECKPOINT)).read()
                        .getOrDefault(ORDERS_0, 0L) == 0L, "no checkpoint written after the failure");
    }

    @Test
    void aFailingCheckpointFailsTheDirectory() throws Exception {
        LogManager manager = LogManager.open(logDir, tp -> CONFIG, (dir, reason) -> failures.add(reason));
        manager.getOrCreateLog(ORDERS_0).append(batch(3, 0), 0, 1);
        arm("EIO");
        assertThrows(LogStorageException.class, manager::checkpoint);
        assertEquals(1, failures.size());
        manager.close();
        disarm();
        try (LogManager reopened = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(Map.of(ORDERS_0, 3L), Map.of(ORDERS_0, reopened.log(ORDERS_0).orElseThrow().logEndOffset()));
        }
    }

    @Test
    void aLogClosedUnderAReaderIsNotADiskFailure() throws Exception {
        // A partition moving off the broker closes its log while fetches may still read it: the reader sees a
        // closed channel, which says nothing about the disk and must not take the directory offline.
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG,
                (dir, reason) -> failures.add(reason))) {
            int raced = 0;
            for (int round = 0; round < 200; round++) {
                TopicPartition tp = new TopicPartition("moving", round);
                Log log = manager.getOrCreateLog(tp);
                for (int i = 0; i < 50; i++) {
                    log.append(batch(3, i), 0, 1);
                }
                java.util.concurrent.atomic.AtomicReference<RuntimeException> seen =
                        new java.util.concurrent.atomic.AtomicReference<>();
                Thread reader = new Thread(() -> {
                    try {
                        for (int i = 0; ; i++) {
                            log.read((i * 3L) % 150, 1024, true).records().readFully();
                        }
                    } catch (RuntimeException e) {
                        seen.set(e);
                    } catch (java.nio.channels.ClosedChannelException e) {
                        // The slice read after the log handed it out: what a network send of it meets.
                        seen.set(new IllegalStateException(e));
                    } catch (Exception e) {
                        seen.set(new RuntimeException(e));
                    }
                });
                reader.start();
                Thread.sleep(0, 200_000);
                log.close();
                reader.join(10_000);
                RuntimeException error = seen.get();
                assertTrue(error instanceof IllegalStateException || error instanceof LogStorageException,
                        "a read of a closed log fails cleanly, not with " + error);
                if (error instanceof LogStorageException storage) {
                    raced++;
                    assertFalse(storage.isDeviceFailure(), storage.getMessage());
                }
            }
            assertEquals(List.of(), failures, "raced a close " + raced + " times");
            assertFalse(manager.isFailed());
        }
    }

    private void arm(String fault) throws Exception {
        Files.writeString(logDir.resolve(FaultInjection.TRIGGER_FILE), fault);
    }

    private void disarm() throws Exception {
        Files.delete(logDir.resolve(FaultInjection.TRIGGER_FILE));
    }
}
