package io.kraft.raft;

import java.util.OptionalInt;

/**
 * A voter that follows {@code leaderId} in {@code epoch}, or, without a leader, waits for an election whose
 * timeout expires at {@code electionDeadlineTick}.
 */
final class FollowerState implements RoleState {
    private final int epoch;
    private final OptionalInt leaderId;
    private final OptionalInt votedId;
    private final long electionDeadlineTick;
    private final FetchSession fetch;

    FollowerState(int epoch, OptionalInt leaderId, OptionalInt votedId, long electionDeadlineTick,
                  long fetchDeadlineTick) {
        this.epoch = epoch;
        this.leaderId = leaderId;
        this.votedId = votedId;
        this.electionDeadlineTick = electionDeadlineTick;
        this.fetch = new FetchSession(fetchDeadlineTick);
    }

    @Override
    public Role role() {
        return Role.FOLLOWER;
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

    boolean hasLeader() {
        return leaderId.isPresent();
    }

    /**
     * Following a leader this node has itself heard from within the fetch timeout. A leader learned second-hand
     * (from a vote response) does not count, or two voters could keep each other loyal to a dead leader.
     */
    boolean hasLiveLeader() {
        return hasLeader() && fetch.heardFromLeader();
    }

    FetchSession fetch() {
        return fetch;
    }

    long electionDeadlineTick() {
        return electionDeadlineTick;
    }

    /** Without a leader: whether the election timeout has run out. */
    boolean electionTimedOut(long nowTick) {
        return !hasLeader() && nowTick >= electionDeadlineTick;
    }

    /** Whether this follower may vote for {@code candidateId} in its epoch. */
    boolean canGrantVote(int candidateId) {
        return !hasLeader() && (votedId.isEmpty() || votedId.getAsInt() == candidateId);
    }

    @Override
    public String toString() {
        return "Follower(epoch=" + epoch + ", leader=" + leaderId + ", voted=" + votedId + ")";
    }
}
