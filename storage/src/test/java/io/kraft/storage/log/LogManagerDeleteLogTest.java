package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleting a partition's log: renamed out of the way at once, removed in the background, finished on open. */
class LogManagerDeleteLogTest {
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final LogConfig CONFIG = LogConfig.builder().segmentBytes(2048).maxIndexBytes(4096).build();

    @TempDir
    Path logDir;

    private List<String> entries() throws Exception {
        try (Stream<Path> files = Files.list(logDir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private Map<TopicPartition, Long> recoveryPoints() {
        return new OffsetCheckpointFile(logDir.resolve(LogManager.RECOVERY_POINT_CHECKPOINT)).read();
    }

    @Test
    void aDeletedLogLeavesTheDirectoryTheCheckpointsAndTheManager() throws Exception {
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log doomed = manager.getOrCreateLog(ORDERS_0);
            for (int i = 0; i < 40; i++) {
                doomed.append(batch(3, i), 0, 1);
            }
            manager.getOrCreateLog(ORDERS_1).append(batch(2, 0), 0, 1);
            manager.checkpoint();
            assertEquals(Set.of(ORDERS_0, ORDERS_1), recoveryPoints().keySet());

            assertTrue(manager.deleteLog(ORDERS_0));
            assertTrue(doomed.isClosed());
            assertFalse(Files.exists(logDir.resolve("orders-0")), "renamed at once");
            assertEquals(Set.of(ORDERS_1), manager.logs().keySet());
            assertEquals(Set.of(ORDERS_1), recoveryPoints().keySet());
            assertFalse(manager.deleteLog(ORDERS_0), "nothing left to delete");

            Log recreated = manager.getOrCreateLog(ORDERS_0);
            assertEquals(0, recreated.logEndOffset(), "a new log of the same name starts empty");
            recreated.append(batch(1, 0), 0, 1);
        }
        assertTrue(entries().stream().noneMatch(name -> name.endsWith(LogManager.DELETE_DIR_SUFFIX)),
                "the renamed directory is gone once the manager closed: " + entries());
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(1, manager.log(ORDERS_0).orElseThrow().logEndOffset());
        }
    }

    @Test
    void aCrashMidDeleteIsFinishedOnOpenAndItsCheckpointEntriesDropped() throws Exception {
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log log = manager.getOrCreateLog(ORDERS_0);
            for (int i = 0; i < 40; i++) {
                log.append(batch(3, i), 0, 1);
            }
            manager.getOrCreateLog(ORDERS_1).append(batch(2, 0), 0, 1);
        }
        // As a crash right after the rename (and during the removal) leaves it: a half-emptied renamed
        // directory and checkpoints that still name the partition.
        Path renamed = logDir.resolve("orders-0.0123456789abcdef0123456789abcdef" + LogManager.DELETE_DIR_SUFFIX);
        Files.move(logDir.resolve("orders-0"), renamed);
        try (Stream<Path> files = Files.list(renamed)) {
            Files.delete(files.filter(p -> p.toString().endsWith(".index")).findFirst().orElseThrow());
        }
        Files.createDirectories(renamed.resolve("stray-subdirectory"));
        Files.delete(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        assertEquals(Set.of(ORDERS_0, ORDERS_1), recoveryPoints().keySet());

        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(Set.of(ORDERS_1), manager.logs().keySet());
            assertFalse(Files.exists(renamed));
            assertEquals(Set.of(ORDERS_1), recoveryPoints().keySet(), "stale entries would mislead a new orders-0");
        }
    }

    @Test
    void onlyDeletedLogNamesAreTreatedAsDeleted() {
        assertTrue(LogManager.isDeletedLogDirectory(Path.of("my.topic-3.0123456789abcdef0123456789abcdef-delete")));
        assertFalse(LogManager.isDeletedLogDirectory(Path.of("orders-0")));
        assertFalse(LogManager.isDeletedLogDirectory(Path.of("orders-0.notauuid-delete")));
        assertFalse(LogManager.isDeletedLogDirectory(Path.of("notapartition.0123456789abcdef0123456789abcdef-delete")));
    }

    @Test
    void aClosedManagerRefusesToDelete() {
        LogManager manager = LogManager.open(logDir, tp -> CONFIG);
        manager.getOrCreateLog(ORDERS_0);
        manager.close();
        assertThrows(IllegalStateException.class, () -> manager.deleteLog(ORDERS_0));
    }
}
