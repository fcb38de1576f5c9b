package io.kraft.metadata.sim;

/**
 * A transaction decided PrepareCommit always completes as CompleteCommit, and PrepareAbort as CompleteAbort, at the same
 * producer id and epoch, whatever controller crashes or failovers happen in between; and a transactional id's producer
 * id and epoch only grow.
 */
final class TransactionDecisionsAreKept implements Invariant {
    @Override
    public void check(SimCluster cluster) {
        if (!cluster.committedLog().transactionViolations().isEmpty()) {
            throw cluster.violation(cluster.committedLog().transactionViolations().get(0));
        }
    }
}
