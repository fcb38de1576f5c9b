package io.kraft.raft;

/** A snapshot chunk or a received snapshot failed its checksum or manifest check; nothing of it was installed. */
public final class CorruptSnapshotException extends RuntimeException {

    public CorruptSnapshotException(String message) {
        super(message);
    }
}
