package io.kraft.storage.log;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Temp directories on tmpfs ({@code /dev/shm}) when the machine has one, so property tests that
 * fsync on every roll measure the log rather than the disk; falls back to the default temp dir.
 */
public final class MemoryBackedTempDirFactory implements TempDirFactory {
    private static final Path SHM = Path.of("/dev/shm");

    @Override
    public Path createTempDirectory(AnnotatedElementContext elementContext, ExtensionContext extensionContext)
            throws Exception {
        if (Files.isDirectory(SHM) && Files.isWritable(SHM)) {
            return Files.createTempDirectory(SHM, "kraft-log-test-");
        }
        return Files.createTempDirectory("kraft-log-test-");
    }
}
