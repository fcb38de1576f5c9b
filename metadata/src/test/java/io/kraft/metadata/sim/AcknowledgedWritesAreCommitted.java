package io.kraft.metadata.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * Every acknowledged admin or broker request's records are in the committed log: a controller answers a write only
 * once its records committed. Checked as each acknowledgement is given (the log only grows, so it then stays true).
 */
final class AcknowledgedWritesAreCommitted implements Invariant {
    private final List<Acknowledgement> unchecked = new ArrayList<>();

    void add(Acknowledgement acknowledgement) {
        unchecked.add(acknowledgement);
    }

    @Override
    public void check(SimCluster cluster) {
        for (Acknowledgement acknowledgement : unchecked) {
            String missing = acknowledgement.missingFrom(cluster.committedLog());
            if (missing != null) {
                throw cluster.violation("acknowledged but not committed: " + missing);
            }
        }
        unchecked.clear();
    }
}
