package io.kraft.raft;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import io.kraft.raft.RaftMessage.BeginQuorumEpochResponse;
import io.kraft.raft.RaftMessage.EndQuorumEpoch;
import io.kraft.raft.RaftMessage.VoteRequest;
import io.kraft.raft.RaftMessage.VoteResponse;
import java.util.List;
import java.util.OptionalInt;

/**
 * Who leads which epoch: pre-votes (KIP-996) and votes, counted and answered; leaders announcing themselves
 * (BeginQuorumEpoch); and resigning leaders naming who should stand first (EndQuorumEpoch).
 */
final class Election {
    private final NodeContext node;
    private final Transitions roles;

    Election(NodeContext node, Transitions roles) {
        this.node = node;
        this.roles = roles;
    }

    /** A fresh pre-vote round for the epoch after the current one, with this node's own grant counted. */
    ProspectiveState newPreVoteRound() {
        RoleState current = roles.state();
        return new ProspectiveState(current.epoch(), current.votedId(), selfGrantedTally(),
                node.now() + node.randomElectionTimeoutTicks(), Long.MAX_VALUE);
    }

    /** A candidacy in the next epoch, having voted for itself. */
    CandidateState newCandidacy() {
        return new CandidateState(roles.state().epoch() + 1, node.nodeId, selfGrantedTally(),
                node.now() + node.randomElectionTimeoutTicks());
    }

    private VoteTally selfGrantedTally() {
        VoteTally tally = new VoteTally(node.voters().size(), node.voters().majority());
        tally.record(node.nodeId, true);
        return tally;
    }

    /** Asks every other voter for its (pre-)vote in {@code candidateEpoch}, comparing logs by their last entry. */
    void askForVotes(int candidateEpoch, boolean preVote) {
        for (int voterId : node.otherVoters()) {
            java.util.UUID directory = node.voters().voter(voterId).map(Voter::directoryId)
                    .orElse(Voter.UNKNOWN_DIRECTORY);
            node.send(new VoteRequest(node.nodeId, voterId, candidateEpoch, node.log.endOffset(), node.log.lastEpoch(),
                    preVote, directory));
        }
    }

    /**
     * Grants a pre-vote to an up-to-date candidate unless this node has a live leader, and a vote (once per epoch,
     * persisted before the answer leaves) to an up-to-date candidate of this node's epoch.
     */
    void answerVoteRequest(VoteRequest request) {
        RoleStep step = roles.current();
        boolean granted = false;
        // In a dynamic quorum the candidate need not be in our voter set, which may be behind its own (KIP-853); a
        // static one knows every voter for good, so a stranger is refused. The candidate counts only the
        // votes of its own set, and we grant only to a log at least as up to date as ours. Likewise we vote when its
        // set names us with our own directory though ours does not yet; a directory that is not ours means our disk
        // was wiped since, and we are not the voter it asks.
        java.util.UUID asked = request.voterDirectoryId();
        boolean unknown = asked.equals(Voter.UNKNOWN_DIRECTORY) || node.directoryId.equals(Voter.UNKNOWN_DIRECTORY);
        boolean keyMatches = unknown || asked.equals(node.directoryId);
        boolean namedByCandidate = !unknown && keyMatches;
        boolean candidateKnown = node.voterHistory.dynamic() || node.isVoter(request.source());
        if ((node.isLocalVoter() || namedByCandidate) && keyMatches && candidateKnown
                && request.source() != node.nodeId) {
            boolean upToDate = new OffsetAndEpoch(request.lastEndOffset(), request.lastEpoch())
                    .compareTo(node.log.lastOffsetAndEpoch()) >= 0;
            if (request.preVote()) {
                granted = request.epoch() > step.state().epoch() && upToDate && !step.hasLiveLeader();
            } else if (request.epoch() == step.state().epoch() && upToDate) {
                granted = step.grantVote(request.source());
            }
        }
        // Name a leader only if we hear from it ourselves: passing on hearsay can keep voters loyal to a dead one.
        RoleStep now = roles.current();
        int liveLeader = now.hasLiveLeader() ? NodeContext.leaderOrNone(now.state()) : RaftMessage.NO_LEADER;
        node.send(new RaftMessage.VoteResponse(node.nodeId, request.source(), now.state().epoch(), liveLeader, granted,
                request.preVote(), request.epoch()));
    }

    void onPreVoteResponse(ProspectiveState prospective, VoteResponse response) {
        if (!node.isVoter(response.source()) || followNamedLeader(prospective, response)) {
            return;
        }
        if (response.preVote() && response.candidateEpoch() == prospective.candidateEpoch()) {
            prospective.tally().record(response.source(), response.granted());
            if (prospective.tally().won()) {
                roles.becomeCandidate();
            } else if (prospective.tally().lost()) {
                prospective.retryAt(node.backoffDeadlineTick());
            }
        }
    }

    void onVoteResponse(CandidateState candidate, VoteResponse response) {
        if (!node.isVoter(response.source()) || followNamedLeader(candidate, response)) {
            return;
        }
        if (!response.preVote() && response.candidateEpoch() == candidate.epoch()
                && response.epoch() == candidate.epoch()) {
            candidate.tally().record(response.source(), response.granted());
            if (candidate.tally().won()) {
                roles.becomeLeader();
            } else if (candidate.tally().lost()) {
                candidate.backOffUntil(node.backoffDeadlineTick());
            }
        }
    }

    /** A refusal that names a leader of our epoch ends the round: follow that leader instead. */
    private boolean followNamedLeader(RoleState state, VoteResponse response) {
        if (response.granted() || response.epoch() != state.epoch() || response.leaderId() == RaftMessage.NO_LEADER
                || response.leaderId() == node.nodeId) {
            return false;
        }
        roles.becomeFollower(state.epoch(), OptionalInt.of(response.leaderId()), state.votedId(),
                node.randomElectionTimeoutTicks());
        return true;
    }

    /**
     * A voter that cannot be reached cannot grant this round. Counting it as a refusal ends a round that can no
     * longer be won (two candidates that split the vote while the third voter is down) after the election backoff
     * instead of the whole election timeout; a later grant from it still counts.
     */
    void voterUnreachable(ProspectiveState prospective, int peerId) {
        if (isOtherVoter(peerId)) {
            prospective.tally().record(peerId, false);
            if (prospective.tally().lost()) {
                prospective.retryAt(Math.min(prospective.retryTick(), node.backoffDeadlineTick()));
            }
        }
    }

    void voterUnreachable(CandidateState candidate, int peerId) {
        if (isOtherVoter(peerId)) {
            candidate.tally().record(peerId, false);
            if (candidate.tally().lost()) {
                candidate.backOffUntil(node.backoffDeadlineTick());
            }
        }
    }

    private boolean isOtherVoter(int peerId) {
        return node.isVoter(peerId) && peerId != node.nodeId;
    }

    /** A voter announces itself leader of its epoch: a member of that epoch without a leader follows it. */
    void onLeaderAnnouncement(BeginQuorumEpoch message) {
        RoleState state = roles.state();
        // The leader we voted for in this epoch may be missing from our (older) voter set: it won with its own.
        boolean knownCandidate = node.trusts(message.source()) || state.votedId().equals(OptionalInt.of(message.source()));
        if (message.epoch() == state.epoch() && state.leaderId().isEmpty() && knownCandidate) {
            if (node.isLocalVoter()) {
                roles.becomeFollower(state.epoch(), OptionalInt.of(message.source()), state.votedId(),
                        node.randomElectionTimeoutTicks());
            } else {
                roles.becomeObserver(state.epoch(), OptionalInt.of(message.source()));
            }
        }
        RoleStep now = roles.current();
        if (message.epoch() == now.state().epoch()) {
            now.leaderAnnounced(message.source()); // the leader spoke to us directly
        }
        node.send(new BeginQuorumEpochResponse(node.nodeId, message.source(), now.state().epoch(),
                NodeContext.leaderOrNone(now.state())));
    }

    /**
     * Our leader resigned: elect a successor at once, the best placed first. The resigning leader's NOT_LEADER fetch
     * answers may overtake this message, so it is honoured when we already dropped that leader too.
     */
    void onLeaderResigned(FollowerState follower, EndQuorumEpoch message) {
        boolean fromOurLeader = follower.leaderId().equals(OptionalInt.of(message.source()));
        boolean leaderAlreadyGone = follower.leaderId().isEmpty() && node.isVoter(message.source());
        if (message.epoch() != follower.epoch() || !(fromOurLeader || leaderAlreadyGone)) {
            return;
        }
        int delayTicks = successorDelayTicks(message.preferredSuccessors());
        if (fromOurLeader || node.now() + delayTicks < follower.electionDeadlineTick()) {
            roles.becomeFollower(follower.epoch(), OptionalInt.empty(), follower.votedId(), delayTicks);
        }
    }

    /**
     * The best-placed successor stands at once (next tick): the others wait at least one step each, so
     * they cannot split its vote, plus jitter among themselves. A successor that cannot win (not caught
     * up after all) costs one step before the next one stands.
     */
    private int successorDelayTicks(List<Integer> preferredSuccessors) {
        int position = preferredSuccessors.indexOf(node.nodeId);
        if (position < 0) {
            return node.randomElectionTimeoutTicks();
        }
        if (position == 0) {
            return 1;
        }
        int stepTicks = Math.max(1, node.config.electionBackoffMaxTicks() / Math.max(1, node.voters().size()));
        return 1 + position * stepTicks + node.random.nextInt(stepTicks);
    }
}
