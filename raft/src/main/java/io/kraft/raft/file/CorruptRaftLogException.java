package io.kraft.raft.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The metadata log is damaged where it had been fsynced: not a torn write from a crash, which recovery cuts off, but
 * lost or changed bytes (a bad disk, a file changed by hand). Cutting the log there would silently drop entries this
 * member may have acknowledged, so the node refuses to start instead. The message is one line naming the file, the
 * offset and how to recover.
 */
public final class CorruptRaftLogException extends UncheckedIOException {
    public CorruptRaftLogException(Path segment, long offset, long bytePosition, String problem, long recoveryPoint) {
        this("metadata log segment " + segment + " is corrupt at offset " + offset + " (byte " + bytePosition + "): "
                + problem + ", below offset " + recoveryPoint + " which had been fsynced, so this is no torn write");
    }

    public CorruptRaftLogException(String message) {
        super(message + "; refusing to start: recover metadata.log.dir from a snapshot and the quorum's other members",
                new IOException(message));
    }
}
