package io.kraft.raft;

import java.util.OptionalInt;

/** A voter that voted for itself in {@code epoch} and collects votes until it wins, loses or times out. */
final class CandidateState implements RoleState {
    private final int epoch;
    private final int nodeId;
    private final VoteTally tally;
    private long deadlineTick;

    CandidateState(int epoch, int nodeId, VoteTally tally, long deadlineTick) {
        this.epoch = epoch;
        this.nodeId = nodeId;
        this.tally = tally;
        this.deadlineTick = deadlineTick;
    }

    @Override
    public Role role() {
        return Role.CANDIDATE;
    }

    @Override
    public int epoch() {
        return epoch;
    }

    @Override
    public OptionalInt leaderId() {
        return OptionalInt.empty();
    }

    @Override
    public OptionalInt votedId() {
        return OptionalInt.of(nodeId);
    }

    VoteTally tally() {
        return tally;
    }

    long deadlineTick() {
        return deadlineTick;
    }

    /** After a lost round, wait a random backoff before the next pre-vote so candidates do not collide forever. */
    void backOffUntil(long tick) {
        this.deadlineTick = Math.min(deadlineTick, tick);
    }

    @Override
    public String toString() {
        return "Candidate(epoch=" + epoch + ")";
    }
}
