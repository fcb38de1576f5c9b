package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.raft.QuorumState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileQuorumStateStoreTest {
    @TempDir
    Path dir;

    @Test
    void startsFromInitialStateAndRoundTrips() {
        FileQuorumStateStore store = new FileQuorumStateStore(dir);
        assertEquals(QuorumState.INITIAL, store.read());
        QuorumState state = new QuorumState(7, OptionalInt.of(2), OptionalInt.of(3));
        store.write(state);
        assertEquals(state, new FileQuorumStateStore(dir).read());
        store.write(new QuorumState(8, OptionalInt.empty(), OptionalInt.empty()));
        assertEquals(8, new FileQuorumStateStore(dir).read().epoch());
        assertFalse(Files.exists(dir.resolve(FileQuorumStateStore.FILE_NAME + ".tmp")), "the temp file is renamed");
    }

    @Test
    void leftoverTempFileFromACrashIsIgnored() throws Exception {
        FileQuorumStateStore store = new FileQuorumStateStore(dir);
        QuorumState state = new QuorumState(4, OptionalInt.of(1), OptionalInt.empty());
        store.write(state);
        Files.writeString(dir.resolve(FileQuorumStateStore.FILE_NAME + ".tmp"), "epoch=99 half writ");
        assertEquals(state, store.read());
    }

    @Test
    void corruptFileIsRefusedRatherThanGuessed() throws Exception {
        FileQuorumStateStore store = new FileQuorumStateStore(dir);
        store.write(new QuorumState(5, OptionalInt.of(1), OptionalInt.of(1)));
        Path file = dir.resolve(FileQuorumStateStore.FILE_NAME);
        String text = Files.readString(file, StandardCharsets.UTF_8).replace("epoch=5", "epoch=6");
        Files.writeString(file, text);
        CorruptQuorumStateException e = assertThrows(CorruptQuorumStateException.class, store::read);
        assertEquals("corrupt quorum state file " + file + ": crc mismatch", e.getMessage());
    }
}
