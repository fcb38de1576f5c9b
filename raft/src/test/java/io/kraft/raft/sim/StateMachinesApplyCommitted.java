package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Every state machine applies exactly the committed data records, in offset order, without gaps or repeats. */
final class StateMachinesApplyCommitted implements Invariant {
    private record Incarnation(int nodeId, int incarnation) {
    }

    private final Map<Incarnation, Integer> verifiedCount = new HashMap<>();
    private final Map<Incarnation, Long> lastOffset = new HashMap<>();

    @Override
    public void check(SimCluster cluster) {
        List<LogEntry> committed = cluster.committed();
        for (SimNode node : cluster.nodes()) {
            if (!node.isUp()) {
                continue;
            }
            Incarnation key = new Incarnation(node.id(), node.incarnation());
            List<SimNode.Applied> applied = node.applied();
            long previous = lastOffset.getOrDefault(key, -1L);
            for (int i = verifiedCount.getOrDefault(key, 0); i < applied.size(); i++) {
                SimNode.Applied record = applied.get(i);
                if (record.offset() >= committed.size()) {
                    throw cluster.violation("node " + node.id() + " applied offset " + record.offset()
                            + " beyond the committed log end " + committed.size());
                }
                LogEntry entry = committed.get((int) record.offset());
                if (!entry.isData() || entry.epoch() != record.epoch()
                        || !Arrays.equals(entry.payload(), record.payload())) {
                    throw cluster.violation("node " + node.id() + " applied something else than " + entry);
                }
                if (record.offset() <= previous) {
                    throw cluster.violation("node " + node.id() + " applied offset " + record.offset()
                            + " after " + previous);
                }
                for (long skipped = previous + 1; skipped < record.offset(); skipped++) {
                    if (committed.get((int) skipped).isData()) {
                        throw cluster.violation("node " + node.id() + " skipped committed data at " + skipped);
                    }
                }
                previous = record.offset();
            }
            verifiedCount.put(key, applied.size());
            lastOffset.put(key, previous);
        }
    }
}
