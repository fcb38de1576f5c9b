package io.kraft.cli.shell;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * Tells whether a process holds a POSIX lock on a file (RocksDB's LOCK file while a node runs), without taking
 * the lock: on Linux by reading /proc/locks, since taking and releasing the lock from a process that already
 * holds it would drop that process's own lock. Elsewhere it tries the lock and releases it at once.
 */
final class LockHolder {
    private static final Path PROC_LOCKS = Path.of("/proc/locks");

    private LockHolder() {
    }

    /** Who holds a lock on {@code file} ("process N" or "another process"), or empty if nobody does. */
    static Optional<String> of(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            if (Files.isReadable(PROC_LOCKS)) {
                return fromProcLocks(file, Files.readAllLines(PROC_LOCKS));
            }
            return byTrying(file);
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty(); // cannot tell: the read-only opening that follows is safe either way
        }
    }

    /** Lines like {@code 1: POSIX  ADVISORY  WRITE 4242 fe:00:2154498 0 EOF} (device in hex, inode in decimal). */
    static Optional<String> fromProcLocks(Path file, List<String> lines) throws IOException {
        long inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        long device = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
        long major = ((device >>> 8) & 0xfff) | ((device >>> 32) & ~0xfffL);
        long minor = (device & 0xff) | ((device >>> 12) & ~0xffL);
        for (String line : lines) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 6 || fields[1].equals("->")) {
                continue; // a waiter queued behind a lock, not a holder
            }
            String[] id = fields[5].split(":");
            if (id.length != 3) {
                continue;
            }
            try {
                boolean sameInode = Long.parseLong(id[2]) == inode;
                boolean sameDevice = Long.parseLong(id[0], 16) == major && Long.parseLong(id[1], 16) == minor;
                // Overlay and other virtual file systems report their own device, but lock the real inode.
                if (sameInode && (sameDevice || major == 0)) {
                    return Optional.of("process " + fields[4]);
                }
            } catch (NumberFormatException unexpected) {
                // not a line of the documented form: skip it
            }
        }
        return Optional.empty();
    }

    private static Optional<String> byTrying(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return Optional.of("another process");
            }
            lock.release();
            return Optional.empty();
        } catch (OverlappingFileLockException e) {
            return Optional.of("this process");
        }
    }
}
