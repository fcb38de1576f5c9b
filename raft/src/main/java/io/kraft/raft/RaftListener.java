package io.kraft.raft;

/**
 * The replicated state machine: receives snapshot loads, committed records in offset order and leadership
 * changes, one call at a time from the driver's thread.
 *
 * <p><b>Order.</b> For each {@link Ready} the driver calls {@link #handleLoadSnapshot} (if a snapshot is to be
 * loaded), then {@link #handleCommit} once per committed batch in offset order, then {@link #handleLeaderChange},
 * then {@link #handleLeaderReady}; the next Ready's calls come after all of these. A Ready gathers what one step of
 * the node (one message, tick or append, or a burst of them) produced, so:
 * <ul>
 *   <li>Records committed in the same step as a leader change are handed over before that change, even when the
 *       change happened first within the step. A leader that commits its last records and loses its leadership in
 *       one step sees those records (of its own epoch) and then the change.</li>
 *   <li>A record is never handed over before the leader change announcing its epoch: {@link CommittedBatch#epoch()}
 *       is at most the epoch of the last {@link #handleLeaderChange} call before it. Records of a newer epoch reach
 *       a member only in answer to a fetch it sends in that epoch, and it sends one only in the Ready announcing the
 *       epoch or later, so that announcement has been handed over first. In particular a deposed leader is told of
 *       the newer epoch before it sees any record of it.</li>
 *   <li>Each {@link RaftClient#append} reaches the listener whole, inside one batch (see {@link #handleCommit}).</li>
 * </ul>
 */
public interface RaftListener {

    /**
     * Records up to {@link CommittedBatch#lastOffset()} are committed; called once per batch, in order. The records of
     * one {@link RaftClient#append} are never split across two calls (a call may hold several appends): an append
     * commits whole, and a batch holds one epoch's data only, which an append never straddles.
     */
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
