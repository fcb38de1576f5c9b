package io.kraft.raft;

import java.util.OptionalInt;

/** The election state a voter must persist before acting on it: current epoch, its vote and the known leader. */
public record QuorumState(int epoch, OptionalInt votedId, OptionalInt leaderId) {

    public static final QuorumState INITIAL = new QuorumState(0, OptionalInt.empty(), OptionalInt.empty());

    public QuorumState {
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0 but was " + epoch);
        }
    }
}
