package io.kraft.raft;

import io.kraft.raft.RaftMessage.EndQuorumEpoch;
import java.util.OptionalInt;

/** A non-voter following the committed log, probing voters for the leader whenever it knows none. */
final class ObserverStep extends FetchingStep {
    private final ObserverState observer;

    ObserverStep(NodeParts parts, ObserverState observer) {
        super(parts);
        this.observer = observer;
    }

    @Override
    ObserverState state() {
        return observer;
    }

    @Override
    void tick() {
        if (observer.leaderId().isPresent() && observer.fetch().contactExpired(parts.node().now())) {
            loseLeader();
        }
        parts.roles().current().maybeSendFetch();
    }

    /**
     * An observer that hears from its leader vouches for it, as a follower does: a voter removed while it was away
     * (KIP-853) asks the voters it still knows, which may be observers now, and follows the leader they name.
     */
    @Override
    boolean hasLiveLeader() {
        return observer.leaderId().isPresent() && observer.fetch().heardFromLeader();
    }

    @Override
    boolean grantVote(int candidateId) {
        if (!observer.canGrantVote(candidateId)) {
            return false;
        }
        observer.recordVote(candidateId);
        return true;
    }

    @Override
    FetchSession fetchSession() {
        return observer.fetch();
    }

    @Override
    OptionalInt fetchTarget() {
        return observer.leaderId().isPresent() ? observer.leaderId() : parts.discovery().voterToProbe();
    }

    @Override
    void adoptLeader(int leaderId) {
        parts.roles().becomeObserver(observer.epoch(), OptionalInt.of(leaderId));
    }

    @Override
    void loseLeader() {
        parts.roles().becomeObserver(observer.epoch(), OptionalInt.empty());
    }

    @Override
    void answeredByNonLeader() {
        if (observer.leaderId().isEmpty()) {
            // The voter asked knows no leader either (an election is on): ask again soon, not after the request
            // timeout, or the observer learns the new leader seconds after it was elected.
            parts.discovery().probeAgainSoon(observer.fetch());
        }
    }

    @Override
    void peerUnreachable(int peerId) {
        if (observer.leaderId().isEmpty()) {
            parts.discovery().probedVoterUnreachable(peerId, observer.fetch());
        } else if (observer.leaderId().equals(OptionalInt.of(peerId))) {
            giveUpOnLeaderSoon(peerId);
        }
    }

    @Override
    public void onEndQuorumEpoch(EndQuorumEpoch message) {
        if (message.epoch() == observer.epoch() && observer.leaderId().equals(OptionalInt.of(message.source()))) {
            loseLeader();
        }
    }
}
