package io.kraft.raft;

import io.kraft.raft.RaftMessage.VoteResponse;

/** A voter that bumped the epoch, voted for itself and collects votes. */
final class CandidateStep extends RoleStep {
    private final CandidateState candidate;

    CandidateStep(NodeParts parts, CandidateState candidate) {
        super(parts);
        this.candidate = candidate;
    }

    @Override
    CandidateState state() {
        return candidate;
    }

    @Override
    void tick() {
        if (parts.node().now() >= candidate.deadlineTick()) {
            parts.roles().becomeProspective();
        }
    }

    @Override
    void peerUnreachable(int peerId) {
        parts.election().voterUnreachable(candidate, peerId);
    }

    @Override
    public void onVoteResponse(VoteResponse message) {
        parts.election().onVoteResponse(candidate, message);
    }
}
