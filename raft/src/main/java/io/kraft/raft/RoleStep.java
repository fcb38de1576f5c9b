package io.kraft.raft;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import io.kraft.raft.RaftMessage.BeginQuorumEpochResponse;
import io.kraft.raft.RaftMessage.EndQuorumEpoch;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import io.kraft.raft.RaftMessage.FetchSnapshotRequest;
import io.kraft.raft.RaftMessage.FetchSnapshotResponse;
import io.kraft.raft.RaftMessage.VoteRequest;
import io.kraft.raft.RaftMessage.VoteResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * How a node in one role reacts to each event: etcd's per-role step function as one object per role, which
 * {@link RaftNode} swaps on every transition. This base holds what every role does alike (answer votes and leader
 * announcements, refuse fetches it cannot serve, ignore the rest); each role overrides what it does differently.
 */
abstract class RoleStep implements RaftMessage.Handler {
    final NodeParts parts;

    RoleStep(NodeParts parts) {
        this.parts = parts;
    }

    abstract RoleState state();

    /** One logical tick passed: fire whatever timer of this role ran out. */
    abstract void tick();

    /** The log is durable further than before. */
    void logFlushed() {
        maybeSendFetch();
    }

    /** Fetch from the leader if this role fetches and a request may go out now. */
    void maybeSendFetch() {
    }

    /** The transport could not reach {@code peerId} at all (its process looks dead). */
    void peerUnreachable(int peerId) {
    }

    /** Whether this node leads, or follows a leader it has heard from itself within the fetch timeout. */
    boolean hasLiveLeader() {
        return false;
    }

    /** Votes for {@code candidateId} in this node's epoch if the role allows it; returns whether it did. */
    boolean grantVote(int candidateId) {
        return false;
    }

    /** Voter {@code leaderId} announced itself leader of this node's epoch. */
    void leaderAnnounced(int leaderId) {
    }

    /** Appends records as the leader; any other role refuses. */
    CompletableFuture<Long> append(List<byte[]> records) {
        return CompletableFuture.failedFuture(new NotLeaderException(parts.node().nodeId, state().epoch(),
                state().leaderId()));
    }

    /** Steps down gracefully if leading; otherwise nothing. */
    void resign() {
    }

    /** On the leader, what every member has acknowledged. */
    List<ReplicaProgress> replicaProgress() {
        return List.of();
    }

    @Override
    public void onVoteRequest(VoteRequest message) {
        parts.election().answerVoteRequest(message);
    }

    @Override
    public void onVoteResponse(VoteResponse message) {
    }

    @Override
    public void onBeginQuorumEpoch(BeginQuorumEpoch message) {
        parts.election().onLeaderAnnouncement(message);
    }

    @Override
    public void onBeginQuorumEpochResponse(BeginQuorumEpochResponse message) {
        // All it can teach is a newer epoch, which the epoch gate handled before dispatch.
    }

    @Override
    public void onEndQuorumEpoch(EndQuorumEpoch message) {
    }

    @Override
    public void onFetchRequest(FetchRequest message) {
        parts.leading().refuseFetch(state(), message);
    }

    @Override
    public void onFetchResponse(FetchResponse message) {
    }

    @Override
    public void onFetchSnapshotRequest(FetchSnapshotRequest message) {
        parts.snapshots().refuseChunks(state(), message);
    }

    @Override
    public void onFetchSnapshotResponse(FetchSnapshotResponse message) {
    }

    @Override
    public String toString() {
        return state().toString();
    }
}
