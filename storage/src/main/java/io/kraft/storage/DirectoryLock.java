package io.kraft.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An exclusive lock on a data directory, held through a {@code .lock} file inside it (Kafka's name) for as long as a
 * node uses the directory, so that a second node started on the same directories is refused before it touches a
 * file. The operating system drops the lock when the process dies, so a kill -9 leaves nothing to clean up.
 */
public final class DirectoryLock implements AutoCloseable {
    /** The lock file's name inside each locked directory. */
    public static final String FILE_NAME = ".lock";

    private final Path dir;
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(Path dir, FileChannel channel, FileLock lock) {
        this.dir = dir;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks {@code dir}, creating it and its lock file if needed.
     *
     * @throws DirectoryInUseException if another process, or another node in this one, holds the lock
     * @throws UncheckedIOException    if the lock file cannot be opened
     */
    public static DirectoryLock acquire(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        FileChannel channel;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the lock file " + file, e);
        }
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new DirectoryInUseException(dir, "another process");
            }
            return new DirectoryLock(dir, channel, lock);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw new DirectoryInUseException(dir, "another node in this process");
        } catch (DirectoryInUseException e) {
            closeQuietly(channel);
            throw e;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock " + file, e);
        }
    }

    /**
     * Locks every directory, in order, each once however it is spelled (./data and data are one directory); if one is
     * in use, releases those already locked and rethrows.
     *
     * @throws DirectoryInUseException naming the first directory in use
     */
    public static List<DirectoryLock> acquireAll(List<Path> dirs) {
        List<DirectoryLock> locks = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        try {
            for (Path dir : dirs) {
                if (seen.add(dir.toAbsolutePath().normalize())) {
                    locks.add(acquire(dir));
                }
            }
            return locks;
        } catch (RuntimeException e) {
            locks.forEach(DirectoryLock::close);
            throw e;
        }
    }

    public Path dir() {
        return dir;
    }

    /** Releases the lock; the lock file stays (deleting it would race with a node taking it). */
    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException | RuntimeException ignored) {
            // closing the channel below releases it too
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }

    /** The directory is locked by another node. */
    public static final class DirectoryInUseException extends RuntimeException {
        public DirectoryInUseException(Path dir, String holder) {
            super("the directory " + dir + " is in use by " + holder + " (it holds " + dir.resolve(FILE_NAME)
                    + "): stop that node first, or give this one other directories");
        }
    }
}
