package io.kraft.storage.log;

import java.nio.file.Path;

/**
 * Hears that a log directory failed: an I/O error on one of its files (a full disk, a failed write or fsync), after
 * which the directory is to go offline as a whole (KIP-112). Called on whatever thread hit the error, possibly holding
 * a log's lock, so it must only hand the work on.
 */
@FunctionalInterface
public interface LogDirFailureListener {

    /**
     * @param logDir the failed directory (one of {@code log.dirs})
     * @param reason one line: the operation, the file and the error
     */
    void logDirFailed(Path logDir, String reason);
}
