package io.kraft.raft.file;

import java.nio.file.Path;

/** The quorum-state file exists but cannot be trusted; starting anyway could let this voter vote twice. */
public final class CorruptQuorumStateException extends RuntimeException {
    public CorruptQuorumStateException(Path file, String problem) {
        super("corrupt quorum state file " + file + ": " + problem);
    }
}
