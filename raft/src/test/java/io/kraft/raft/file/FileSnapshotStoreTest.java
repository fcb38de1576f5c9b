package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.CorruptSnapshotException;
import io.kraft.raft.Crc32c;
import io.kraft.raft.SnapshotId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshot directories on disk: save, verify on open, chunked transfer with resume, and corrupt-input rejection. */
class FileSnapshotStoreTest {
    private static final SnapshotId ID = new SnapshotId(120, 3);

    @TempDir
    Path dir;

    private static byte[] bytes(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    /** A checkpoint-like directory of a few files (one empty). */
    private static void writeCheckpoint(Path directory) throws IOException {
        Files.createDirectories(directory);
        Files.write(directory.resolve("000012.sst"), bytes(70_000, 1));
        Files.write(directory.resolve("CURRENT"), "MANIFEST-000005\n".getBytes());
        Files.write(directory.resolve("OPTIONS-000007"), new byte[0]);
    }

    /** Copies the transfer form of {@code id} from one store to another in chunks of {@code chunkBytes}. */
    private static void transfer(FileSnapshotStore from, FileSnapshotStore to, SnapshotId id, int chunkBytes) {
        long size = from.sizeBytes(id);
        while (to.receivedBytes(id) < size) {
            long position = to.receivedBytes(id);
            byte[] chunk = from.read(id, position, chunkBytes);
            to.receive(id, position, chunk, Crc32c.of(chunk));
        }
        to.install(id);
    }

    @Test
    void savedSnapshotIsADirectoryWithAManifestAndTheLatestAfterReopen() throws IOException {
        FileSnapshotStore store = FileSnapshotStore.open(dir);
        assertEquals(Optional.empty(), store.latest());
        store.save(new SnapshotId(50, 2), FileSnapshotStoreTest::writeCheckpoint);
        store.save(ID, FileSnapshotStoreTest::writeCheckpoint);
        Path snapshotDir = dir.resolve("snapshots").resolve(ID.toString());
        assertEquals(snapshotDir, store.directory(ID));
        assertTrue(Files.exists(snapshotDir.resolve(FileSnapshotStore.MANIFEST)));
        assertArrayEquals(bytes(70_000, 1), Files.readAllBytes(snapshotDir.resolve("000012.sst")));
        assertEquals(Optional.of(ID), FileSnapshotStore.open(dir).latest());
    }

    @Test
    void openingSkipsASnapshotWhoseFilesNoLongerMatchTheManifest() throws IOException {
        FileSnapshotStore store = FileSnapshotStore.open(dir);
        SnapshotId older = new SnapshotId(50, 2);
        store.save(older, FileSnapshotStoreTest::writeCheckpoint);
        store.save(ID, FileSnapshotStoreTest::writeCheckpoint);
        Files.write(store.directory(ID).resolve("CURRENT"), "MANIFEST-000009\n".getBytes());
        assertEquals(Optional.of(older), FileSnapshotStore.open(dir).latest(), "the latest valid one is loaded");
    }

    @Test
    void transferInChunksResumesAfterARestartAndInstallsAnIdenticalCopy() throws IOException {
        FileSnapshotStore leader = FileSnapshotStore.open(dir.resolve("leader"));
        leader.save(ID, FileSnapshotStoreTest::writeCheckpoint);
        FileSnapshotStore follower = FileSnapshotStore.open(dir.resolve("follower"));
        byte[] first = leader.read(ID, 0, 30_000);
        follower.receive(ID, 0, first, Crc32c.of(first));

        FileSnapshotStore reopened = FileSnapshotStore.open(dir.resolve("follower"));
        assertEquals(30_000, reopened.receivedBytes(ID), "a transfer resumes where it stopped");
        transfer(leader, reopened, ID, 4096);
        assertEquals(Optional.of(ID), reopened.latest());
        assertEquals(0, reopened.receivedBytes(ID), "the partial file is gone once installed");
        for (String name : new String[] {"000012.sst", "CURRENT", "OPTIONS-000007"}) {
            assertArrayEquals(Files.readAllBytes(leader.directory(ID).resolve(name)),
                    Files.readAllBytes(reopened.directory(ID).resolve(name)), name);
        }
    }

    @Test
    void aCorruptChunkIsRejectedWithAClearErrorAndStoresNothing() throws IOException {
        FileSnapshotStore leader = FileSnapshotStore.open(dir.resolve("leader"));
        leader.save(ID, FileSnapshotStoreTest::writeCheckpoint);
        FileSnapshotStore follower = FileSnapshotStore.open(dir.resolve("follower"));
        byte[] chunk = leader.read(ID, 0, 1000);
        int crc = Crc32c.of(chunk);
        chunk[500] ^= 1;
        CorruptSnapshotException error = assertThrows(CorruptSnapshotException.class,
                () -> follower.receive(ID, 0, chunk, crc));
        assertTrue(error.getMessage().contains("CRC32C") && error.getMessage().contains(ID.toString()),
                error.getMessage());
        assertEquals(0, follower.receivedBytes(ID));
        assertEquals(Optional.empty(), follower.latest());
    }

    @Test
    void aSnapshotWhoseFilesFailTheManifestIsNotInstalled() throws IOException {
        FileSnapshotStore leader = FileSnapshotStore.open(dir.resolve("leader"));
        leader.save(ID, FileSnapshotStoreTest::writeCheckpoint);
        FileSnapshotStore follower = FileSnapshotStore.open(dir.resolve("follower"));
        long size = leader.sizeBytes(ID);
        byte[] all = leader.read(ID, 0, (int) size);
        all[(int) size - 100] ^= 1; // damaged at the source: every chunk checksum is right, the file CRC is not
        follower.receive(ID, 0, all, Crc32c.of(all));
        CorruptSnapshotException error = assertThrows(CorruptSnapshotException.class, () -> follower.install(ID));
        assertTrue(error.getMessage().contains("000012.sst"), error.getMessage());
        assertEquals(Optional.empty(), follower.latest());
        assertFalse(follower.contains(ID));
        assertEquals(0, follower.receivedBytes(ID), "the damaged transfer starts over");
    }
}
