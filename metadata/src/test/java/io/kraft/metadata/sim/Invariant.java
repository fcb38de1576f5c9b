package io.kraft.metadata.sim;

/** A safety property checked after every simulated event; throws {@link InvariantViolation} when broken. */
interface Invariant {
    void check(SimCluster cluster);
}
