package io.kraft.raft;

import io.kraft.raft.RaftMessage.VoteResponse;

/** A voter asking a pre-vote (KIP-996) before it disturbs anybody's epoch. */
final class ProspectiveStep extends RoleStep {
    private final ProspectiveState prospective;

    ProspectiveStep(NodeParts parts, ProspectiveState prospective) {
        super(parts);
        this.prospective = prospective;
    }

    @Override
    ProspectiveState state() {
        return prospective;
    }

    @Override
    void tick() {
        long now = parts.node().now();
        if (prospective.roundExpired(now) || now >= prospective.retryTick()) {
            parts.roles().becomeProspective();
        }
    }

    @Override
    void peerUnreachable(int peerId) {
        parts.election().voterUnreachable(prospective, peerId);
    }

    @Override
    public void onVoteResponse(VoteResponse message) {
        parts.election().onPreVoteResponse(prospective, message);
    }
}
