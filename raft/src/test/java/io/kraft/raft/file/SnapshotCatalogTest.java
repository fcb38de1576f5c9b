package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.CorruptSnapshotException;
import io.kraft.raft.SnapshotId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotCatalogTest {
    private static final SnapshotId OLDER = new SnapshotId(50, 2);
    private static final SnapshotId NEWER = new SnapshotId(120, 3);

    @TempDir
    Path dir;

    private static void writeFiles(Path directory) throws IOException {
        Files.createDirectories(directory);
        Files.write(directory.resolve("000012.sst"), new byte[] {1, 2, 3, 4});
        Files.write(directory.resolve("CURRENT"), "MANIFEST-000005\n".getBytes());
    }

    @Test
    void findsTheLatestCompleteSnapshotWithoutChangingTheDirectory() throws IOException {
        FileSnapshotStore store = FileSnapshotStore.open(dir);
        store.save(OLDER, SnapshotCatalogTest::writeFiles);
        store.save(NEWER, SnapshotCatalogTest::writeFiles);
        Files.write(store.directory(NEWER).resolve("CURRENT"), "MANIFEST-000009\n".getBytes());
        Path partial = Files.createDirectories(dir.resolve("snapshots").resolve(new SnapshotId(130, 3) + ".tmp"));

        SnapshotCatalog catalog = SnapshotCatalog.of(dir);
        assertEquals(Optional.of(OLDER), catalog.latest());
        assertEquals(List.of(OLDER), catalog.snapshots());
        assertEquals(dir.resolve("snapshots").resolve(OLDER.toString()), catalog.directory(OLDER));
        assertEquals(1, catalog.skipped().size());
        assertTrue(catalog.skipped().get(0).contains("does not match its manifest"), catalog.skipped().toString());
        assertTrue(Files.isDirectory(store.directory(NEWER)), "a corrupt snapshot is left in place");
        assertTrue(Files.isDirectory(partial), "a partial snapshot is left in place");
        assertThrows(IllegalArgumentException.class, () -> catalog.directory(NEWER));
    }

    @Test
    void aDirectoryWithoutSnapshotsHasNone() {
        SnapshotCatalog catalog = SnapshotCatalog.of(dir.resolve("absent"));
        assertEquals(Optional.empty(), catalog.latest());
        assertEquals(List.of(), catalog.skipped());
    }

    @Test
    void verifyNamesTheSnapshotOrSaysWhatIsWrong() throws IOException {
        FileSnapshotStore store = FileSnapshotStore.open(dir);
        store.save(OLDER, SnapshotCatalogTest::writeFiles);
        assertEquals(OLDER, SnapshotCatalog.verify(store.directory(OLDER)));

        Path renamed = Files.createDirectories(dir.resolve("my-copy"));
        IllegalArgumentException badName = assertThrows(IllegalArgumentException.class,
                () -> SnapshotCatalog.verify(renamed));
        assertTrue(badName.getMessage().endsWith("its name is not of the form <endOffset>-<epoch>"),
                badName.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SnapshotCatalog.verify(dir.resolve("absent")));

        Path noManifest = Files.createDirectories(dir.resolve(new SnapshotId(7, 1).toString()));
        CorruptSnapshotException corrupt = assertThrows(CorruptSnapshotException.class,
                () -> SnapshotCatalog.verify(noManifest));
        assertTrue(corrupt.getMessage().contains("has no MANIFEST"), corrupt.getMessage());
    }
}
