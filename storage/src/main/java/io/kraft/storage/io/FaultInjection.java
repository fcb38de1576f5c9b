package io.kraft.storage.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * <b>Test only:</b> makes writes and fsyncs of chosen directories fail the way a full or dying disk does, where the
 * operating system cannot be made to (a small file system needs root to mount). It does nothing unless the JVM runs
 * with {@code -Dkraft.test.io.faults=true} (or a test in the same JVM calls {@link #setEnabled}); then, before each write
 * or fsync of the storage and metadata logs, it looks for a file named {@value #TRIGGER_FILE} in the directory of the
 * file written and its parents (three levels: segment, partition directory, log directory). Its content says which
 * fault to raise:
 * <ul>
 *   <li>{@code ENOSPC}: writes store half their bytes and fail with "No space left on device", as a disk filling up
 *       part way through a write does; fsyncs fail the same way;</li>
 *   <li>{@code FSYNC}: writes succeed but fsyncs fail with "Input/output error", as when a disk cannot flush its
 *       cache (the data may be gone though the writes returned);</li>
 *   <li>{@code EIO} (or anything else): writes and fsyncs fail with "Input/output error" and store nothing.</li>
 * </ul>
 * Deleting the file ends the fault. A production JVM pays one read of a static field per write.
 */
public final class FaultInjection {
    /** The system property that turns injection on. */
    public static final String ENABLE_PROPERTY = "kraft.test.io.faults";
    /** The file whose presence arms a fault for its directory's subtree. */
    public static final String TRIGGER_FILE = ".kraft-io-fault";
    private static final String FSYNC_ONLY = "FSYNC";
    private static final int LEVELS = 3;
    private static volatile boolean enabled = Boolean.getBoolean(ENABLE_PROPERTY);

    private FaultInjection() {
    }

    /** Turns injection on or off for this JVM (tests that run the storage in-process). */
    public static void setEnabled(boolean on) {
        enabled = on;
    }

    /**
     * Writes all of {@code data} to {@code channel} at {@code position}, unless a fault is armed for {@code file}.
     *
     * @throws IOException the injected fault (after part of the data for ENOSPC), or a real one
     */
    public static void writeFully(Path file, FileChannel channel, ByteBuffer data, long position) throws IOException {
        long at = position;
        String fault = enabled ? armedFault(file) : null;
        if (fault != null && !fault.equals(FSYNC_ONLY)) {
            if (fault.equals("ENOSPC")) {
                ByteBuffer half = data.duplicate();
                half.limit(half.position() + half.remaining() / 2);
                while (half.hasRemaining()) {
                    at += channel.write(half, at);
                }
                throw new IOException("No space left on device (injected)");
            }
            throw new IOException("Input/output error (injected)");
        }
        while (data.hasRemaining()) {
            at += channel.write(data, at);
        }
    }

    /** Fails as the armed fault says before an fsync of {@code file}; a no-op when none is armed. */
    public static void beforeFsync(Path file) throws IOException {
        String fault = enabled ? armedFault(file) : null;
        if (fault != null) {
            throw new IOException((fault.equals("ENOSPC") ? "No space left on device" : "Input/output error")
                    + " (injected)");
        }
    }

    /** Fails as the armed fault says before {@code file} is created or replaced; a no-op when none is armed. */
    public static void beforeWrite(Path file) throws IOException {
        String fault = enabled ? armedFault(file) : null;
        if (fault != null && !fault.equals(FSYNC_ONLY)) {
            throw new IOException((fault.equals("ENOSPC") ? "No space left on device" : "Input/output error")
                    + " (injected)");
        }
    }

    private static String armedFault(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        for (int level = 0; level < LEVELS && dir != null; level++, dir = dir.getParent()) {
            Path trigger = dir.resolve(TRIGGER_FILE);
            if (!trigger.toFile().exists()) {
                continue; // java.io's check: NIO's would throw and catch an exception per level and write
            }
            try {
                return Files.readString(trigger, StandardCharsets.US_ASCII).trim().toUpperCase();
            } catch (NoSuchFileException disarmedMeanwhile) {
                return null;
            }
        }
        return null;
    }
}
