package io.kraft.raft.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Small durable-file steps shared by the raft file stores: fsynced writes and atomic, fsynced renames. */
final class DurableFiles {

    private DurableFiles() {
    }

    /** Writes {@code bytes} to {@code file} and fsyncs it (the file is created or replaced). */
    static void writeAndSync(Path file, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }

    /** Replaces {@code file} with {@code bytes} atomically: a crash leaves the old or the new content. */
    static void replaceAtomically(Path file, byte[] bytes) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        writeAndSync(temp, bytes);
        renameAtomically(temp, file);
    }

    /** Renames atomically (replacing the target) and makes the rename durable. */
    static void renameAtomically(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system cannot rename atomically: " + to.getParent(), e);
        }
        FileQuorumStateStore.fsyncDirectory(to.getParent());
    }

    /** Fsyncs a regular file. */
    static void sync(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
