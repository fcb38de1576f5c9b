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
        if (message.epoch() > roles.state().epoch()
                && (node.trusts(message.source()) || message instanceof VoteRequest && node.voterHistory.dynamic())) {
            message.dispatchTo(this);
        }
        return true;
    }

    @Override
    public void onVoteRequest(VoteRequest message) {
        // A pre-vote must not move anybody's epoch. A candidate we do not count as a voter may be one our set has not
        // caught up with (KIP-853: voters may have been added since), so it moves our epoch too, but only if its log
        // is as up to date as ours: it could win, whereas a stale node must not disturb the quorum.
        boolean couldWin = new OffsetAndEpoch(message.lastEndOffset(), message.lastEpoch())
                .compareTo(node.log.lastOffsetAndEpoch()) >= 0;
        if (!message.preVote() && (node.trusts(message.source()) || couldWin)) {
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
        if (node.isLocalVoter()) {
            roles.becomeFollower(message.epoch(), leader, OptionalInt.empty(), node.randomElectionTimeoutTicks());
        } else {
            roles.becomeObserver(message.epoch(), leader);
        }
    }
}
