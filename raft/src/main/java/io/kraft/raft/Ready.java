package io.kraft.raft;

import java.util.List;
import java.util.Optional;

/**
 * Work the driver must carry out, in this order: (1) durably write {@code quorumState} if present, (2) send
 * {@code messages}, (3) if {@code flushLog}, flush the log and later report it with
 * {@link RaftNode#handleLogFlushed(long)}, (4) hand the state machine {@code loadSnapshot} (replace
 * your state with this snapshot from the {@link SnapshotStore}) before the {@code committed} batches that follow
 * it, then {@code leaderChange}, then {@code leaderReady}. Messages may depend on the quorum state, which is why
 * it is written first.
 */
public record Ready(Optional<QuorumState> quorumState, List<RaftMessage> messages, boolean flushLog,
                    List<CommittedBatch> committed, Optional<LeaderAndEpoch> leaderChange,
                    Optional<SnapshotId> loadSnapshot, Optional<LeaderReady> leaderReady) {

    public Ready {
        messages = List.copyOf(messages);
        committed = List.copyOf(committed);
    }

    public boolean isEmpty() {
        return quorumState.isEmpty() && messages.isEmpty() && !flushLog && committed.isEmpty()
                && leaderChange.isEmpty() && loadSnapshot.isEmpty() && leaderReady.isEmpty();
    }
}
