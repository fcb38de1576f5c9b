package io.kraft.raft;

import java.util.OptionalInt;

/** What a node knows and is waiting for while it holds one {@link Role} in one epoch. */
sealed interface RoleState permits FollowerState, ProspectiveState, CandidateState, LeaderState, ObserverState {

    Role role();

    int epoch();

    OptionalInt leaderId();

    OptionalInt votedId();

    default QuorumState quorumState() {
        return new QuorumState(epoch(), votedId(), leaderId());
    }
}
