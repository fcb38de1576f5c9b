package io.kraft.raft;

import java.util.Optional;

/**
 * Durable home of state-machine snapshots as the Raft core sees it. A snapshot travels as one byte stream (its
 * <em>transfer form</em>); a receiving member appends checksummed chunks of that stream and installs it
 * atomically once complete, so a transfer interrupted by a failure resumes from {@link #receivedBytes}.
 */
public interface SnapshotStore {

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

    /**
     * Appends a chunk of an incoming snapshot at {@code position}, which must equal {@link #receivedBytes};
     * throws {@link CorruptSnapshotException} and stores nothing if {@code crc32c} does not match the data.
     */
    void receive(SnapshotId id, long position, byte[] data, int crc32c);

    /**
     * Verifies a completely received snapshot and makes it the latest, atomically and durably. On failure
     * ({@link CorruptSnapshotException}) the partial data is dropped and the stored snapshots are untouched.
     */
    void install(SnapshotId id);
}
