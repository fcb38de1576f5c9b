package io.kraft.raft;

import java.util.OptionalInt;

/** A non-voter following {@code leaderId}, or probing voters for the leader when it does not know one. */
final class ObserverState implements RoleState {
    private final int epoch;
    private final OptionalInt leaderId;
    private final FetchSession fetch;

    ObserverState(int epoch, OptionalInt leaderId, long fetchDeadlineTick) {
        this.epoch = epoch;
        this.leaderId = leaderId;
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
        return OptionalInt.empty();
    }

    FetchSession fetch() {
        return fetch;
    }

    @Override
    public String toString() {
        return "Observer(epoch=" + epoch + ", leader=" + leaderId + ")";
    }
}
