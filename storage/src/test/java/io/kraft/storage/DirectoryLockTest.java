package io.kraft.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryLockTest {
    @TempDir
    Path dir;

    @Test
    void aLockedDirectoryIsRefusedUntilReleased() {
        Path logs = dir.resolve("logs");
        try (DirectoryLock lock = DirectoryLock.acquire(logs)) {
            assertTrue(Files.exists(logs.resolve(DirectoryLock.FILE_NAME)));
            DirectoryLock.DirectoryInUseException refused = assertThrows(DirectoryLock.DirectoryInUseException.class,
                    () -> DirectoryLock.acquire(logs));
            assertTrue(refused.getMessage().contains(logs.toString()), refused.getMessage());
        }
        DirectoryLock.acquire(logs).close();
    }

    @Test
    void acquireAllReleasesWhatItTookWhenOneDirectoryIsInUse() {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        try (DirectoryLock held = DirectoryLock.acquire(b)) {
            assertThrows(DirectoryLock.DirectoryInUseException.class, () -> DirectoryLock.acquireAll(List.of(a, b)));
            DirectoryLock.acquire(a).close(); // not left locked by the failed attempt
        }
        // b named a second time, differently spelled, is the same directory: locked once, not refused.
        List<DirectoryLock> both = DirectoryLock.acquireAll(List.of(a, b, b.resolve("..").resolve("b")));
        assertEquals(List.of(a, b), both.stream().map(DirectoryLock::dir).toList());
        both.forEach(DirectoryLock::close);
    }
}
