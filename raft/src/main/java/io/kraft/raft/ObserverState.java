package io.kraft.raft;

import java.util.OptionalInt;

/** A non-voter following {@code leaderId}, or probing voters for the leader when it does not know one. */
final class ObserverState implements RoleState {
    private final int epoch;
    private final OptionalInt leaderId;
    private final FetchSession fetch;
    /** The vote this node cast in this epoch while it was a voter: kept, so it cannot vote twice if added back. */
    private OptionalInt votedId;

    ObserverState(int epoch, OptionalInt leaderId, long fetchDeadlineTick) {
        this(epoch, leaderId, OptionalInt.empty(), fetchDeadlineTick);
    }

    ObserverState(int epoch, OptionalInt leaderId, OptionalInt votedId, long fetchDeadlineTick) {
        this.epoch = epoch;
        this.leaderId = leaderId;
        this.votedId = votedId;
        this.fetch = new FetchSession(fetchDeadlineTick);
    }

    @Override
    public Role role() {
        return Role.OBSERVER;
    }

    @Override
    public int epoch() {
        return epoch;
    }

    @Override
    public OptionalInt leaderId() {
        return leaderId;
    }

    @Override
    public OptionalInt votedId() {
        return votedId;
    }

    /**
     * Whether this observer may vote for {@code candidateId}: a candidate whose voter set names it though its own
     * log does not yet (KIP-853), in an epoch without a known leader, once per epoch.
     */
    boolean canGrantVote(int candidateId) {
        return leaderId.isEmpty() && (votedId.isEmpty() || votedId.getAsInt() == candidateId);
    }

    /** Records the vote; it is persisted with the quorum state before the answer leaves. */
    void recordVote(int candidateId) {
        if (votedId.isPresent() && votedId.getAsInt() != candidateId) {
            throw new IllegalStateException("observer voted for " + votedId + " in epoch " + epoch + " already");
        }
        votedId = OptionalInt.of(candidateId);
    }

    FetchSession fetch() {
        return fetch;
    }

    @Override
    public String toString() {
        return "Observer(epoch=" + epoch + ", leader=" + leaderId + ")";
    }
}
