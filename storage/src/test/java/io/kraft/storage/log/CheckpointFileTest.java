package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointFileTest {
    @TempDir
    Path dir;

    @Test
    void writesVersionCountAndLinesAndReadsThemBack() throws Exception {
        CheckpointFile file = new CheckpointFile(dir.resolve("c"), 0);
        assertEquals(List.of(), file.read(), "missing file is empty");
        file.write(List.of("a 1", "b 2"));
        assertEquals("0\n2\na 1\nb 2\n", Files.readString(dir.resolve("c")));
        assertEquals(List.of("a 1", "b 2"), file.read());
        file.write(List.of());
        assertEquals(List.of(), file.read());
        assertFalse(Files.exists(dir.resolve("c.tmp")));
        assertThrows(IllegalArgumentException.class, () -> file.write(List.of("two\nlines")));
    }

    @Test
    void rejectsWrongVersionCountOrGarbage() throws Exception {
        CheckpointFile file = new CheckpointFile(dir.resolve("c"), 0);
        Files.writeString(dir.resolve("c"), "1\n0\n");
        assertThrows(CorruptCheckpointException.class, file::read);
        Files.writeString(dir.resolve("c"), "0\n3\na 1\n");
        assertThrows(CorruptCheckpointException.class, file::read);
        Files.writeString(dir.resolve("c"), "0\n");
        assertThrows(CorruptCheckpointException.class, file::read);
        Files.writeString(dir.resolve("c"), "0\nx\n");
        assertThrows(CorruptCheckpointException.class, file::read);
    }

    @Test
    void offsetCheckpointMapsPartitionsToOffsets() throws Exception {
        OffsetCheckpointFile file = new OffsetCheckpointFile(dir.resolve("recovery-point-offset-checkpoint"));
        Map<TopicPartition, Long> offsets = Map.of(new TopicPartition("orders", 0), 42L,
                new TopicPartition("my-topic", 11), 7L);
        file.write(offsets);
        assertEquals(List.of("0", "2", "my-topic 11 7", "orders 0 42"), Files.readAllLines(file.file()));
        assertEquals(offsets, file.read());
        Files.writeString(file.file(), "0\n1\norders 0\n");
        assertThrows(CorruptCheckpointException.class, file::read);
    }

    @Test
    void parsesPartitionDirectoryNames() {
        assertEquals(new TopicPartition("my-topic", 3), TopicPartition.fromDirectoryName("my-topic-3").orElseThrow());
        assertFalse(TopicPartition.fromDirectoryName("my-topic").isPresent());
        assertFalse(TopicPartition.fromDirectoryName("topic-").isPresent());
        assertFalse(TopicPartition.fromDirectoryName("-3").isPresent());
        assertEquals("orders-0", new TopicPartition("orders", 0).directoryName());
    }
}
