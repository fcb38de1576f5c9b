package io.kraft.raft;

/**
 * The replicated state machine: receives snapshot loads, committed records in offset order and leadership
 * changes.
 */
public interface RaftListener {

    /** Records up to {@link CommittedBatch#lastOffset()} are committed; called once per batch, in order. */
    void handleCommit(CommittedBatch batch);

    /**
     * Replace the whole state with snapshot {@code snapshotId} from the node's snapshot store; the next committed
     * batch starts at or after its end offset. Called at startup for the latest snapshot and when a snapshot is
     * installed from the leader.
     */
    void handleLoadSnapshot(SnapshotId snapshotId);

    /** Leadership changed; the leader is absent while an election runs. */
    void handleLeaderChange(LeaderAndEpoch leaderAndEpoch);

    /**
     * This node leads {@link LeaderReady#epoch()} and every record of earlier epochs has been passed to
     * {@link #handleCommit}: from now on the state machine's view is complete and it may append. Called once per
     * epoch led, after the {@link #handleLeaderChange} naming this node.
     */
    default void handleLeaderReady(LeaderReady ready) {
    }
}
