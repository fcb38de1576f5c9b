package io.kraft.raft;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Collects what the parts of a node want done until the driver asks for it as one {@link Ready}. */
final class ReadyBuilder {
    private final List<RaftMessage> messages = new ArrayList<>();
    private final List<CommittedBatch> committed = new ArrayList<>();
    private final List<Ready.SnapshotChunk> snapshotChunks = new ArrayList<>();
    private SnapshotId installSnapshot;
    private LeaderAndEpoch leaderChange;
    private SnapshotId loadSnapshot;
    private LeaderReady leaderReady;

    void send(RaftMessage message) {
        messages.add(message);
    }

    /** A chunk of an incoming snapshot, checked against its CRC32C, to append to the snapshot store. */
    void writeSnapshotChunk(Ready.SnapshotChunk chunk) {
        snapshotChunks.add(chunk);
    }

    /** The incoming snapshot is complete: the driver verifies and installs it, then reports the outcome. */
    void installSnapshot(SnapshotId id) {
        installSnapshot = id;
    }

    void commit(CommittedBatch batch) {
        committed.add(batch);
    }

    /** Forgets batches not handed out yet: a snapshot about to be loaded already holds them. */
    void dropCommitted() {
        committed.clear();
    }

    void leaderChanged(LeaderAndEpoch leaderAndEpoch) {
        leaderChange = leaderAndEpoch;
    }

    void loadSnapshot(SnapshotId id) {
        loadSnapshot = id;
    }

    void leaderReady(LeaderReady ready) {
        leaderReady = ready;
    }

    boolean hasWork() {
        return !messages.isEmpty() || !committed.isEmpty() || leaderChange != null || loadSnapshot != null
                || leaderReady != null || !snapshotChunks.isEmpty() || installSnapshot != null;
    }

    /** The collected work with {@code quorumState} to persist first and the log's writes; starts afresh. */
    Ready build(Optional<QuorumState> quorumState, Ready.LogWrites logWrites) {
        Ready.SnapshotWrites snapshotWrites = snapshotChunks.isEmpty() && installSnapshot == null
                ? Ready.SnapshotWrites.NONE
                : new Ready.SnapshotWrites(snapshotChunks, Optional.ofNullable(installSnapshot));
        Ready ready = new Ready(quorumState, snapshotWrites, logWrites, messages, Optional.ofNullable(loadSnapshot),
                committed, Optional.ofNullable(leaderChange), Optional.ofNullable(leaderReady));
        messages.clear();
        committed.clear();
        snapshotChunks.clear();
        installSnapshot = null;
        leaderChange = null;
        loadSnapshot = null;
        leaderReady = null;
        return ready;
    }
}
