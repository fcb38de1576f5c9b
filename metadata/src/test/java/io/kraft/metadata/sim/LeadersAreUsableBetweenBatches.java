package io.kraft.metadata.sim;

/**
 * Between two requests' batches in the committed log, every partition leader is a registered broker that is neither
 * fenced nor shutting down: the records that fence a broker or start its shutdown move its leaderships in the same
 * batch. (Inside a batch, which Raft may commit in parts, this need not hold.)
 */
final class LeadersAreUsableBetweenBatches implements Invariant {
    @Override
    public void check(SimCluster cluster) {
        if (!cluster.committedLog().unusableLeaders().isEmpty()) {
            throw cluster.violation(cluster.committedLog().unusableLeaders().get(0));
        }
    }
}
