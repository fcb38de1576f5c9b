package io.kraft.raft;

import java.util.OptionalInt;

/**
 * A voter running a pre-vote for {@code epoch + 1} without changing its persisted epoch or vote; it retries when
 * the round's deadline passes.
 */
final class ProspectiveState implements RoleState {
    private final int epoch;
    private final OptionalInt votedId;
    private final VoteTally tally;
    private final long roundDeadlineTick;
    private long retryTick;

    ProspectiveState(int epoch, OptionalInt votedId, VoteTally tally, long roundDeadlineTick, long retryTick) {
        this.epoch = epoch;
        this.votedId = votedId;
        this.tally = tally;
        this.roundDeadlineTick = roundDeadlineTick;
        this.retryTick = retryTick;
    }

    @Override
    public Role role() {
        return Role.PROSPECTIVE;
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
        return votedId;
    }

    int candidateEpoch() {
        return epoch + 1;
    }

    VoteTally tally() {
        return tally;
    }

    boolean roundExpired(long nowTick) {
        return nowTick >= roundDeadlineTick;
    }

    long retryTick() {
        return retryTick;
    }

    void retryAt(long tick) {
        this.retryTick = tick;
    }

    @Override
    public String toString() {
        return "Prospective(epoch=" + epoch + ")";
    }
}
