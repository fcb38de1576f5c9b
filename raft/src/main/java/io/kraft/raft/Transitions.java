package io.kraft.raft;

import java.util.OptionalInt;

/**
 * The role changes the parts of a node may ask for. {@link RaftNode} carries each out through its single gate, which
 * checks the change is legal and swaps in the new role's {@link RoleStep}.
 */
interface Transitions {

    /** The step function of the current role; it changes with every transition. */
    RoleStep current();

    default RoleState state() {
        return current().state();
    }

    /** Follow {@code leaderId} in {@code epoch}, or wait without a leader for {@code electionTimeoutTicks}. */
    void becomeFollower(int epoch, OptionalInt leaderId, OptionalInt votedId, int electionTimeoutTicks);

    void becomeObserver(int epoch, OptionalInt leaderId);

    /** Start a pre-vote round (KIP-996) for the next epoch without touching the persisted epoch or vote. */
    void becomeProspective();

    /** Bump the epoch, vote for this node and ask the other voters. */
    void becomeCandidate();

    /** Lead the current epoch, opening it with a leader-change record. */
    void becomeLeader();
}
