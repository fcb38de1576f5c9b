package io.kraft.raft;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What a replicated state machine sees of Raft: appends fenced by the epoch they were built for, resignation,
 * snapshots it created, and (through its {@link RaftListener}) commits, snapshot loads and leadership. The state
 * machine never sees the Raft implementation itself, so a simulation can put its own behind this interface.
 */
public interface RaftClient {

    int nodeId();

    /**
     * Appends {@code records} as one batch if this node still leads {@code epoch}. The batch is atomic: through
     * replication, elections, truncation, snapshots and crashes its records commit together at consecutive offsets or
     * not at all, and every state machine receives them within one {@link CommittedBatch}. Completes with the offset
     * of the last record once committed; fails with {@link NotLeaderException} if this node does not lead that epoch
     * or stops leading it first (the batch may still be committed, whole, by a later leader). A batch travels in one
     * fetch response however long it is, so it may carry at most {@link RaftConfig#MAX_BATCH_BYTES} of records;
     * a larger one fails with {@link BatchTooLargeException}.
     */
    CompletableFuture<Long> append(int epoch, List<byte[]> records);

    /** Steps down from {@code epoch} gracefully if this node still leads it; a no-op otherwise. */
    CompletableFuture<Void> resign(int epoch);

    /** The state machine stored snapshot {@code id} in the snapshot store; older log records may be deleted. */
    CompletableFuture<Void> snapshotCreated(SnapshotId id);

    /**
     * Whether the listener has been handed every record committed as far as this node has heard: false while a
     * leader has reported a high watermark beyond what this node has fetched (a member catching up between two
     * fetches). Readable from any thread; it turns true only after the batches it covers reached the listener.
     */
    default boolean handedOverAllCommitted() {
        return true;
    }

    /** Leader, epoch, high watermark and (on the leader) every member's acknowledged position. */
    CompletableFuture<QuorumDescription> describe();
}
