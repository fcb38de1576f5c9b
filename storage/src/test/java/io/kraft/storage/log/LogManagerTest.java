package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.PreviousShutdown;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogManagerTest {
    @TempDir
    Path logDir;

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition MY_TOPIC_3 = new TopicPartition("my-topic", 3);
    private static final LogConfig CONFIG = LogConfig.builder().segmentBytes(2048).indexIntervalBytes(100).build();

    @Test
    void closeCheckpointsAndMarksACleanShutdownThatTheNextOpenConsumes() throws Exception {
        byte[] orders;
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log log = manager.getOrCreateLog(ORDERS_0);
            for (int i = 0; i < 50; i++) {
                log.append(batch(2, i), 0, 1);
            }
            log.deleteRecordsBefore(30);
            manager.getOrCreateLog(MY_TOPIC_3).append(batch(4, 0), 0, 1);
            orders = bytes(TestBatches.readAll(log));
            assertFalse(Files.exists(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE)));
        }
        assertTrue(Files.exists(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE)));
        assertEquals(Map.of(ORDERS_0, 100L, MY_TOPIC_3, 4L),
                new OffsetCheckpointFile(logDir.resolve(LogManager.RECOVERY_POINT_CHECKPOINT)).read());
        assertEquals(Map.of(ORDERS_0, 30L, MY_TOPIC_3, 0L),
                new OffsetCheckpointFile(logDir.resolve(LogManager.LOG_START_OFFSET_CHECKPOINT)).read());

        Files.createDirectories(logDir.resolve("not-a-partition"));
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertFalse(Files.exists(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE)), "removed on open");
            assertEquals(Set.of(ORDERS_0, MY_TOPIC_3), manager.logs().keySet());
            Log log = manager.log(ORDERS_0).orElseThrow();
            assertEquals(30, log.logStartOffset());
            assertEquals(100, log.logEndOffset());
            assertArrayEquals(orders, bytes(TestBatches.readAll(log)));
        }
    }

    @Test
    void theCleanShutdownMarkerKeepsTheOwnersStampForTheNextOpenOnly() throws Exception {
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(-1, manager.previousShutdownStamp(), "a new directory has no stamp");
            manager.setShutdownStamp(42);
        }
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(42, manager.previousShutdownStamp());
        }
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(-1, manager.previousShutdownStamp(), "a close without a stamp leaves none");
            manager.setShutdownStamp(7);
        }
        Files.delete(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(-1, manager.previousShutdownStamp(), "no marker: no clean shutdown, no stamp");
        }
    }

    @Test
    void withoutTheMarkerSegmentsPastTheRecoveryPointAreRevalidated() throws Exception {
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log log = manager.getOrCreateLog(ORDERS_0);
            for (int i = 0; i < 40; i++) {
                log.append(batch(2, i), 0, 1);
            }
        }
        // Simulate a crash after the last checkpoint: no marker, and a torn write at the end.
        Files.delete(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        Path partition = logDir.resolve(ORDERS_0.directoryName());
        Path active;
        try (var files = Files.list(partition)) {
            active = files.filter(f -> f.toString().endsWith(".log")).sorted().reduce((a, b) -> b).orElseThrow();
        }
        long size = Files.size(active);
        try (FileChannel channel = FileChannel.open(active, StandardOpenOption.WRITE)) {
            channel.truncate(size - 3);
        }
        new OffsetCheckpointFile(logDir.resolve(LogManager.RECOVERY_POINT_CHECKPOINT)).write(Map.of(ORDERS_0, 0L));
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log log = manager.log(ORDERS_0).orElseThrow();
            assertEquals(78, log.logEndOffset(), "the torn last batch is cut");
            assertEquals(78, TestBatches.offsets(TestBatches.readAll(log)).size());
        }
    }

    @Test
    void aCorruptRecoveryCheckpointMeansRecoveringEverything() throws Exception {
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log log = manager.getOrCreateLog(ORDERS_0);
            for (int i = 0; i < 30; i++) {
                log.append(batch(2, i), 0, 1);
            }
        }
        Files.delete(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        Files.writeString(logDir.resolve(LogManager.RECOVERY_POINT_CHECKPOINT), "0\n7\norders 0 60\n");
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log log = manager.log(ORDERS_0).orElseThrow();
            assertEquals(0, log.recoveryPoint(), "nothing is assumed flushed");
            assertEquals(60, log.logEndOffset());
            assertEquals(60, TestBatches.offsets(TestBatches.readAll(log)).size());
        }
    }

    @Test
    void aCleanShutdownSkipsValidationButStillRebuildsAMissingIndex() throws Exception {
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log log = manager.getOrCreateLog(ORDERS_0);
            for (int i = 0; i < 40; i++) {
                log.append(batch(2, i), 0, 1);
            }
        }
        Path partition = logDir.resolve(ORDERS_0.directoryName());
        Files.delete(partition.resolve("00000000000000000000.index"));
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log log = manager.log(ORDERS_0).orElseThrow();
            LogSegment first = log.segments().get(0);
            assertTrue(first.offsetIndex().entries() > 0, "rebuilt");
            first.sanityCheck();
            assertEquals(TestBatches.offsets(log.read(21, 10_000, false).records().readFully()).get(0), 20L);
        }
    }

    @Test
    void opensSayWhetherTheDirectoryIsNewWasClosedCleanlyOrIsRecovered() throws Exception {
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(PreviousShutdown.NONE, manager.previousShutdown());
        }
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(PreviousShutdown.CLEAN, manager.previousShutdown(), "closed cleanly, even with no logs");
            manager.getOrCreateLog(ORDERS_0).append(batch(2, 0), 0, 1);
        }
        Files.delete(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE)); // as a crash leaves it
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(PreviousShutdown.UNCLEAN, manager.previousShutdown());
        }
    }

    @Test
    void aCrashBeforeTheFirstCheckpointIsStillACrashOnceALogExists() throws Exception {
        LogManager crashed = LogManager.open(logDir, tp -> CONFIG);
        crashed.getOrCreateLog(ORDERS_0).append(batch(2, 0), 0, 1);
        // never closed: no checkpoint file, no marker
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(PreviousShutdown.UNCLEAN, manager.previousShutdown());
            assertEquals(Set.of(ORDERS_0), manager.logs().keySet());
        }
        crashed.log(ORDERS_0).orElseThrow().closeHandlers();
    }

    @Test
    void theMetadataLogDirectoryBesideThePartitionsIsNeverOpenedCreatedOrDeleted() throws Exception {
        Path metadataLog = Files.createDirectories(logDir.resolve(TopicPartition.CLUSTER_METADATA.directoryName()));
        Files.writeString(metadataLog.resolve("00000000000000000000.raftlog"), "not a partition segment");
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            manager.getOrCreateLog(ORDERS_0).append(batch(2, 0), 0, 1);
            assertEquals(Set.of(ORDERS_0), manager.logs().keySet());
            assertFalse(manager.deleteLog(TopicPartition.CLUSTER_METADATA));
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> manager.getOrCreateLog(TopicPartition.CLUSTER_METADATA));
            assertTrue(refused.getMessage().contains("is the directory of the metadata log"), refused.getMessage());
        }
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(Set.of(ORDERS_0), manager.logs().keySet());
        }
        assertEquals("not a partition segment", Files.readString(metadataLog.resolve("00000000000000000000.raftlog")));
        assertEquals(Map.of(ORDERS_0, 2L),
                new OffsetCheckpointFile(logDir.resolve(LogManager.RECOVERY_POINT_CHECKPOINT)).read());
    }
}
