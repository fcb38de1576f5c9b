package io.kraft.storage.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The one place that makes files crash-safe: replace a file atomically (temp file, fsync, rename, fsync the
 * directory), rename atomically, fsync a file or a directory. Every failure is an {@link IOException} naming the
 * file and the step that failed.
 */
public final class DurableFiles {
    /** Suffix of the sibling a replacement is written to first; a leftover one is garbage from a crash. */
    public static final String TEMP_SUFFIX = ".tmp";

    private DurableFiles() {
    }

    /**
     * Replaces {@code file} with {@code content} so that a crash at any point leaves either the old or the new
     * content: writes {@code <file>.tmp}, fsyncs it, renames it over {@code file} atomically and fsyncs the
     * directory. On failure the temp file is removed and {@code file} is untouched.
     */
    public static void writeAtomically(Path file, byte[] content) throws IOException {
        writeAtomically(file, content, true);
    }

    /**
     * As {@link #writeAtomically(Path, byte[])}; with {@code fsync} false the rename is still atomic (never a torn
     * file) but neither the file nor the directory is fsynced, so a crash may bring back the previous content. For
     * state a reload re-derives anyway, where an fsync per write would cost more than it saves.
     */
    public static void writeAtomically(Path file, byte[] content, boolean fsync) throws IOException {
        Path temp = tempFileOf(file);
        try {
            write(temp, content, fsync);
            atomicMove(temp, file);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        if (fsync) {
            fsyncDirectory(parentOf(file));
        }
    }

    /**
     * Creates or overwrites {@code file} in place and fsyncs it; not atomic. For files inside a directory that is
     * published afterwards as a whole with {@link #atomicMove}.
     */
    public static void writeAndFsync(Path file, byte[] content) throws IOException {
        write(file, content, true);
    }

    /** Renames {@code source} to {@code target} atomically, replacing it; durable once the directory is fsynced. */
    public static void atomicMove(Path source, Path target) throws IOException {
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            // A non-atomic fallback could leave a torn or missing file after a crash: refuse instead.
            throw new IOException("cannot rename " + source + " to " + target + ": the file system cannot rename "
                    + "atomically", e);
        } catch (IOException e) {
            throw new IOException("cannot rename " + source + " to " + target + ": " + e, e);
        }
    }

    /** fsyncs a regular file's data and metadata. */
    public static void fsyncFile(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            FaultInjection.beforeFsync(file);
            channel.force(true);
        } catch (IOException e) {
            throw new IOException("cannot fsync " + file + ": " + e, e);
        }
    }

    /**
     * Makes the creation, rename or deletion of entries in {@code directory} durable. Some platforms (Windows)
     * cannot open a directory; there this is best effort, as the entries themselves have changed.
     */
    public static void fsyncDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            FaultInjection.beforeFsync(directory.resolve("."));
            channel.force(true);
        } catch (IOException e) {
            if (!System.getProperty("os.name", "").toLowerCase().contains("win")) {
                throw new IOException("cannot fsync directory " + directory + ": " + e, e);
            }
        }
    }

    /** The sibling {@link #writeAtomically} writes first. */
    public static Path tempFileOf(Path file) {
        return file.resolveSibling(file.getFileName() + TEMP_SUFFIX);
    }

    private static void write(Path file, byte[] content, boolean fsync) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            FaultInjection.writeFully(file, channel, ByteBuffer.wrap(content), 0);
            if (fsync) {
                FaultInjection.beforeFsync(file);
                channel.force(true);
            }
        } catch (IOException e) {
            throw new IOException("cannot write " + file + ": " + e, e);
        }
    }

    private static Path parentOf(Path file) {
        return file.toAbsolutePath().getParent();
    }
}
