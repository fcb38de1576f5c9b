package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import java.util.Arrays;
import java.util.List;

/** An append future completes only once its records are committed, at exactly the offsets it reports. */
final class AppendsAcknowledgedOnlyWhenCommitted implements Invariant {
    private int verified;

    @Override
    public void check(SimCluster cluster) {
        List<LogEntry> committed = cluster.committed();
        List<SimCluster.AcknowledgedAppend> acknowledged = cluster.acknowledged();
        for (; verified < acknowledged.size(); verified++) {
            SimCluster.AcknowledgedAppend append = acknowledged.get(verified);
            long first = append.lastOffset() - append.records().size() + 1;
            for (int i = 0; i < append.records().size(); i++) {
                long offset = first + i;
                if (offset >= committed.size()) {
                    throw cluster.violation("append acknowledged at " + append.lastOffset()
                            + " but the committed log ends at " + committed.size());
                }
                if (!Arrays.equals(committed.get((int) offset).payload(), append.records().get(i))) {
                    throw cluster.violation("append acknowledged at offset " + offset
                            + " but a different record was committed there");
                }
            }
        }
    }
}
