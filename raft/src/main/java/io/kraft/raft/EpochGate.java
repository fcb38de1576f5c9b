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
import java.util.OptionalInt;

/**
 * Moves a node into a newer epoch that a message proves exists, before the message is handled in that epoch. Only
 * voters can have moved the epoch; anything else claiming a newer one is ignored, not believed. Which message types
 * prove an epoch, and which name its leader, is written here once per type.
 */
final class EpochGate implements RaftMessage.Handler {
    private final NodeContext node;
    private final Transitions roles;

    EpochGate(NodeContext node, Transitions roles) {
        this.node = node;
        this.roles = roles;
    }

    /**
     * Enters the message's epoch if it is newer and proven; false if the message must be dropped, its epoch being
     * too far ahead to be believed ({@link RaftConfig#MAX_EPOCH_JUMP}).
     */
    boolean admit(RaftMessage message) {
        if (message.epoch() - (long) roles.state().epoch() > RaftConfig.MAX_EPOCH_JUMP) {
            return false;
        }
        if (message.epoch() > roles.state().epoch() && node.isVoter(message.source())) {
            message.dispatchTo(this);
        }
        return true;
    }

    @Override
    public void onVoteRequest(VoteRequest message) {
        if (!message.preVote()) { // a pre-vote must not move anybody's epoch
            enter(message, RaftMessage.NO_LEADER);
        }
    }

    @Override
    public void onVoteResponse(VoteResponse message) {
        enter(message, message.leaderId());
    }

    @Override
    public void onBeginQuorumEpoch(BeginQuorumEpoch message) {
        enter(message, message.source());
    }

    @Override
    public void onBeginQuorumEpochResponse(BeginQuorumEpochResponse message) {
        enter(message, message.leaderId());
    }

    @Override
    public void onEndQuorumEpoch(EndQuorumEpoch message) {
        enter(message, RaftMessage.NO_LEADER);
    }

    @Override
    public void onFetchRequest(FetchRequest message) {
        // A fetch at a newer epoch means the sender knows more: it is answered (as fenced), not believed.
    }

    @Override
    public void onFetchResponse(FetchResponse message) {
        enter(message, message.leaderId());
    }

    @Override
    public void onFetchSnapshotRequest(FetchSnapshotRequest message) {
        enter(message, RaftMessage.NO_LEADER);
    }

    @Override
    public void onFetchSnapshotResponse(FetchSnapshotResponse message) {
        enter(message, RaftMessage.NO_LEADER);
    }

    private void enter(RaftMessage message, int leaderId) {
        OptionalInt leader = leaderId == RaftMessage.NO_LEADER ? OptionalInt.empty() : OptionalInt.of(leaderId);
        if (node.config.isVoter()) {
            roles.becomeFollower(message.epoch(), leader, OptionalInt.empty(), node.randomElectionTimeoutTicks());
        } else {
            roles.becomeObserver(message.epoch(), leader);
        }
    }
}
