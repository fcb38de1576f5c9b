package io.kraft.raft;

import io.kraft.raft.RaftMessage.EndQuorumEpoch;
import java.util.OptionalInt;

/** A voter following a leader, or waiting for an election without one. */
final class FollowerStep extends FetchingStep {
    private final FollowerState follower;

    FollowerStep(NodeParts parts, FollowerState follower) {
        super(parts);
        this.follower = follower;
    }

    @Override
    FollowerState state() {
        return follower;
    }

    @Override
    void tick() {
        long now = parts.node().now();
        if (follower.hasLeader() ? follower.fetch().contactExpired(now) : follower.electionTimedOut(now)) {
            parts.roles().becomeProspective();
        } else {
            maybeSendFetch();
        }
    }

    @Override
    FetchSession fetchSession() {
        return follower.fetch();
    }

    @Override
    OptionalInt fetchTarget() {
        return follower.leaderId();
    }

    @Override
    void adoptLeader(int leaderId) {
        parts.roles().becomeFollower(follower.epoch(), OptionalInt.of(leaderId), follower.votedId(),
                parts.node().randomElectionTimeoutTicks());
    }

    @Override
    void loseLeader() {
        parts.roles().becomeFollower(follower.epoch(), OptionalInt.empty(), follower.votedId(),
                parts.node().randomElectionTimeoutTicks());
    }

    @Override
    boolean hasLiveLeader() {
        return follower.hasLiveLeader();
    }

    @Override
    boolean grantVote(int candidateId) {
        if (!follower.canGrantVote(candidateId)) {
            return false;
        }
        if (follower.votedId().isEmpty()) {
            parts.roles().becomeFollower(follower.epoch(), OptionalInt.empty(), OptionalInt.of(candidateId),
                    parts.node().randomElectionTimeoutTicks());
        }
        return true;
    }

    @Override
    void leaderAnnounced(int leaderId) {
        if (follower.leaderId().equals(OptionalInt.of(leaderId))) {
            follower.fetch().contacted(parts.node().now() + parts.node().config.fetchTimeoutTicks());
        }
    }

    @Override
    void peerUnreachable(int peerId) {
        if (follower.leaderId().equals(OptionalInt.of(peerId))) {
            giveUpOnLeaderSoon(peerId);
        }
    }

    @Override
    public void onEndQuorumEpoch(EndQuorumEpoch message) {
        parts.election().onLeaderResigned(follower, message);
    }
}
