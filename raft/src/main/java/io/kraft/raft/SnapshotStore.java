package io.kraft.raft;

/**
 * Durable home of state-machine snapshots as its driver owns it: readable like any {@link ReadableSnapshotStore}, and
 * written by the state machine (saving its own snapshots) and by the driver carrying out a {@link Ready}'s
 * {@link Ready.SnapshotWrites}. A receiving member appends checksummed chunks of an incoming snapshot's transfer form
 * and installs it atomically once complete, so a transfer interrupted by a failure resumes from
 * {@link #receivedBytes}.
 */
public interface SnapshotStore extends ReadableSnapshotStore {

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
