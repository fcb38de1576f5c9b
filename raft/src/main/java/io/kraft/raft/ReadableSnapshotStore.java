package io.kraft.raft;

import java.util.Optional;

/**
 * The snapshots a node holds, read only: what the Raft core may see of the driver's {@link SnapshotStore}. A snapshot
 * travels as one byte stream, its <em>transfer form</em>.
 */
public interface ReadableSnapshotStore {

    /** The newest complete snapshot, if any. */
    Optional<SnapshotId> latest();

    /** Whether a complete snapshot with this id is stored. */
    boolean contains(SnapshotId id);

    /** Size of the transfer form of a stored snapshot. */
    long sizeBytes(SnapshotId id);

    /** Up to {@code maxBytes} of the transfer form of a stored snapshot, from {@code position}. */
    byte[] read(SnapshotId id, long position, int maxBytes);

    /** How many bytes of an incoming snapshot have been received (0 if none): where to resume. */
    long receivedBytes(SnapshotId id);
}
