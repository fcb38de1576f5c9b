package io.kraft.raft.sim;

/**
 * No state machine is handed a committed record of an epoch before it was handed the leader change announcing that
 * epoch: a deposed leader learns it lost before it sees another leader's records. This holds with the driver's order
 * (a Ready's committed batches before its leader change) because records of a newer epoch arrive only in answer to
 * a fetch sent in that epoch, after the Ready announcing it was carried out.
 */
final class StateMachinesLearnAnEpochBeforeItsRecords implements Invariant {

    @Override
    public void check(SimCluster cluster) {
        for (SimNode node : cluster.nodes()) {
            String problem = node.earlyRecordsViolation();
            if (problem != null) {
                throw cluster.violation(problem);
            }
        }
    }
}
