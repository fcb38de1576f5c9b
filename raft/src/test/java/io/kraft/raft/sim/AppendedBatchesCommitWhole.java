package io.kraft.raft.sim;

import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LogEntry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A client append is atomic: the committed log never holds part of one (its records are all committed, at
 * consecutive offsets in their order, or none is), and no state machine is handed an append split across two
 * {@link CommittedBatch}es. Records that are not the workload's own are not judged.
 */
final class AppendedBatchesCommitWhole implements Invariant {
    private record Incarnation(int nodeId, int incarnation) {
    }

    private int verifiedEntries;
    /** The append the committed log is in the middle of after {@link #verifiedEntries}, or null between appends. */
    private SimCluster.SubmittedAppend open;
    private long nextInOpen;
    private final Map<Incarnation, Integer> verifiedDeliveries = new HashMap<>();

    @Override
    public void check(SimCluster cluster) {
        checkCommittedLog(cluster);
        checkDeliveries(cluster);
    }

    private void checkCommittedLog(SimCluster cluster) {
        List<LogEntry> committed = cluster.committed();
        for (; verifiedEntries < committed.size(); verifiedEntries++) {
            LogEntry entry = committed.get(verifiedEntries);
            SimCluster.SubmittedAppend append = entry.isData() ? cluster.appendOf(entry.payload()) : null;
            long record = append == null ? -1 : SimCluster.recordNumber(entry.payload());
            if (open != null && (append != open || record != nextInOpen)) {
                throw cluster.violation("the append of records " + open.firstRecord() + ".." + open.lastRecord()
                        + " is torn in the committed log: record " + nextInOpen + " was due at offset "
                        + entry.offset() + " but " + entry + " was committed there");
            }
            if (open == null && append != null && record != append.firstRecord()) {
                throw cluster.violation("the append of records " + append.firstRecord() + ".." + append.lastRecord()
                        + " is committed from its record " + record + " at offset " + entry.offset());
            }
            if (append != null) {
                open = record == append.lastRecord() ? null : append;
                nextInOpen = record + 1;
            }
        }
        if (open != null) {
            throw cluster.violation("the committed log ends at " + committed.size() + " inside the append of records "
                    + open.firstRecord() + ".." + open.lastRecord() + " (record " + nextInOpen + " is not committed)");
        }
    }

    private void checkDeliveries(SimCluster cluster) {
        for (SimNode node : cluster.nodes()) {
            if (!node.isUp()) {
                continue;
            }
            Incarnation key = new Incarnation(node.id(), node.incarnation());
            List<CommittedBatch> deliveries = node.deliveries();
            for (int i = verifiedDeliveries.getOrDefault(key, 0); i < deliveries.size(); i++) {
                CommittedBatch batch = deliveries.get(i);
                byte[] first = batch.records().get(0);
                byte[] last = batch.records().get(batch.records().size() - 1);
                SimCluster.SubmittedAppend firstAppend = cluster.appendOf(first);
                SimCluster.SubmittedAppend lastAppend = cluster.appendOf(last);
                if (firstAppend != null && SimCluster.recordNumber(first) != firstAppend.firstRecord()
                        || lastAppend != null && SimCluster.recordNumber(last) != lastAppend.lastRecord()) {
                    throw cluster.violation("node " + node.id() + " was handed committed offsets "
                            + batch.baseOffset() + ".." + batch.lastOffset() + ", which split a client append");
                }
            }
            verifiedDeliveries.put(key, deliveries.size());
        }
    }
}
