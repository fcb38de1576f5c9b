package io.kraft.metadata.sim;

/**
 * No controller reports a fault: every committed record applies, every snapshot loads, every publisher takes in every
 * image. In a node any of these would stop the process.
 */
final class NoFaults implements Invariant {
    @Override
    public void check(SimCluster cluster) {
        if (!cluster.faults().isEmpty()) {
            throw cluster.violation("fault: " + cluster.faults().get(0));
        }
    }
}
