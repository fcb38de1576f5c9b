package io.kraft.raft;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Collects what the parts of a node want done until the driver asks for it as one {@link Ready}. */
final class ReadyBuilder {
    private final List<RaftMessage> messages = new ArrayList<>();
    private final List<CommittedBatch> committed = new ArrayList<>();
    private boolean flushLog;
    private LeaderAndEpoch leaderChange;
    private SnapshotId loadSnapshot;
    private LeaderReady leaderReady;

    void send(RaftMessage message) {
        messages.add(message);
    }

    void flushLog() {
        flushLog = true;
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
        return !messages.isEmpty() || flushLog || !committed.isEmpty() || leaderChange != null
                || loadSnapshot != null || leaderReady != null;
    }

    /** The collected work with {@code quorumState} to persist first; starts collecting afresh. */
    Ready build(Optional<QuorumState> quorumState) {
        Ready ready = new Ready(quorumState, messages, flushLog, committed, Optional.ofNullable(leaderChange),
                Optional.ofNullable(loadSnapshot), Optional.ofNullable(leaderReady));
        messages.clear();
        committed.clear();
        flushLog = false;
        leaderChange = null;
        loadSnapshot = null;
        leaderReady = null;
        return ready;
    }
}
