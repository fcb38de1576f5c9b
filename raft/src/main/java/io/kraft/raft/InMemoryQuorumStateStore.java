package io.kraft.raft;

/** A {@link QuorumStateStore} held in memory; it survives a simulated crash because the simulation keeps it. */
public final class InMemoryQuorumStateStore implements QuorumStateStore {
    private QuorumState state = QuorumState.INITIAL;

    @Override
    public QuorumState read() {
        return state;
    }

    @Override
    public void write(QuorumState newState) {
        if (newState.epoch() < state.epoch()) {
            throw new IllegalArgumentException("quorum epoch would go back from " + state.epoch() + " to "
                    + newState.epoch());
        }
        state = newState;
    }
}
