package io.kraft.raft.sim;

/**
 * A member acknowledges (by fetching past them) only entries that survive its crash, and a leader counts its own copy
 * only as far as it is flushed: checked against what is really on the member's disk, which may lag what the node
 * handed out, so a node that trusted a write it had not seen flushed is caught at once.
 */
final class AcknowledgedEntriesAreDurable implements Invariant {

    @Override
    public void check(SimCluster cluster) {
        for (SimNode node : cluster.nodes()) {
            String problem = node.durabilityViolation();
            if (problem != null) {
                throw cluster.violation(problem);
            }
        }
    }
}
