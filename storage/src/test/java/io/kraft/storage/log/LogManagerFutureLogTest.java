package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Future logs (KIP-113): a copy of a partition's log being built here, reopened at start, promoted when complete. */
class LogManagerFutureLogTest {
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final LogConfig CONFIG = LogConfig.builder().segmentBytes(2048).maxIndexBytes(4096).build();

    @TempDir
    Path logDir;

    private List<String> entries() throws Exception {
        try (Stream<Path> files = Files.list(logDir)) {
            return files.map(p -> p.getFileName().toString()).filter(name -> name.startsWith("orders")).sorted()
                    .toList();
        }
    }

    @Test
    void aFutureLogOutlivesARestartAndBecomesThePartitionsLogWhenPromoted() throws Exception {
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log source = manager.getOrCreateLog(new TopicPartition("orders", 1));
            for (int i = 0; i < 10; i++) {
                source.append(batch(2, i), 0, 1);
            }
            Log future = manager.getOrCreateFutureLog(ORDERS_0);
            assertTrue(future.dir().getFileName().toString().matches("orders-0\\.[0-9a-f]{32}-future"), future.dir()
                    .toString());
            future.appendAsFollower(source.read(0, Integer.MAX_VALUE, true).records().readFully(), 1);
            assertEquals(20, future.logEndOffset());
            assertFalse(manager.logs().containsKey(ORDERS_0), "a future log is not the partition's log");
            assertEquals(future, manager.getOrCreateFutureLog(ORDERS_0), "one future log per partition");
        }
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            Log reopened = manager.futureLog(ORDERS_0).orElseThrow();
            assertEquals(20, reopened.logEndOffset(), "the copy so far is kept");
            assertFalse(manager.logs().containsKey(ORDERS_0));

            Log promoted = manager.promoteFutureLog(ORDERS_0);
            assertEquals(logDir.resolve("orders-0"), promoted.dir());
            assertEquals(20, promoted.logEndOffset());
            assertEquals(promoted, manager.log(ORDERS_0).orElseThrow());
            assertTrue(manager.futureLog(ORDERS_0).isEmpty());
            assertEquals(List.of("orders-0", "orders-1"), entries());
            assertThrows(IllegalStateException.class, () -> manager.promoteFutureLog(ORDERS_0));
        }
    }

    @Test
    void anAbandonedFutureLogIsDeletedAndAReplacedLogGoesAfterItsDelay() throws Exception {
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            manager.getOrCreateLog(ORDERS_0).append(batch(3, 0), 0, 1);
            manager.getOrCreateFutureLog(ORDERS_0);
            assertTrue(manager.deleteFutureLog(ORDERS_0));
            assertFalse(manager.deleteFutureLog(ORDERS_0), "nothing left to delete");
            assertTrue(entries().stream().noneMatch(name -> name.endsWith(LogManager.FUTURE_DIR_SUFFIX)), entries()
                    .toString());

            Log replaced = manager.log(ORDERS_0).orElseThrow();
            assertTrue(manager.deleteReplacedLog(ORDERS_0, 60_000));
            assertFalse(Files.exists(logDir.resolve("orders-0")), "renamed at once");
            assertFalse(replaced.isClosed(), "still readable during the delay");
            assertTrue(replaced.read(0, 1024, true).records().readFully().remaining() > 0);
        }
        try (LogManager manager = LogManager.open(logDir, tp -> CONFIG)) {
            assertEquals(List.of(), entries(), "the next open removes what the delay left");
        }
    }
}
