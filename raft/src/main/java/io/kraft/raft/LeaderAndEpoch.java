package io.kraft.raft;

import java.util.OptionalInt;

/** Who leads which epoch, as announced to the state machine; an empty leader means an election is under way. */
public record LeaderAndEpoch(OptionalInt leaderId, int epoch) {
}
