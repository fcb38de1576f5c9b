package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.LogManager;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log left in two directories by a crash in the middle of a move's swap: one copy stays, the other goes. */
class LogDirectoriesDuplicateLogTest {
    private static final TopicPartition TP = new TopicPartition("t", 0);

    @TempDir
    Path dir;

    @Test
    void theLongerCopyStays() {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        write(a, 1);
        write(b, 2);
        try (LogDirectories dirs = LogDirectories.open(List.of(a, b), tp -> LogConfig.defaults())) {
            assertEquals(10, dirs.log(TP).orElseThrow().logEndOffset());
            assertEquals(b, dirs.log(TP).orElseThrow().dir().getParent());
            assertFalse(Files.exists(a.resolve("t-0")), "the shorter copy is deleted");
            assertTrue(dirs.describe(tp -> 10).get(0).replicas().isEmpty());
        }
    }

    private static void write(Path logDir, int batches) {
        try (LogManager manager = LogManager.open(logDir, tp -> LogConfig.defaults())) {
            for (int i = 0; i < batches; i++) {
                manager.getOrCreateLog(TP).append(batch(5), 0, 1);
            }
        }
    }

    private static ByteBuffer batch(int records) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(1024), CompressionType.NONE, 0);
        for (int i = 0; i < records; i++) {
            builder.append(1_000L, null, ByteBuffer.wrap(("r" + i).getBytes(StandardCharsets.UTF_8)));
        }
        return builder.build();
    }
}
