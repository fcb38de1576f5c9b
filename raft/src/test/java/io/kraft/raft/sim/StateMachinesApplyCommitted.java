package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every state machine applies exactly the committed data records, in offset order, without gaps or repeats; and a
 * member that loaded a snapshot holds exactly the committed data records below the snapshot's end, the same
 * state the others had at that offset.
 */
final class StateMachinesApplyCommitted implements Invariant {
    /** A state machine's lifetime: it restarts from scratch on a crash and from a snapshot on each load. */
    private record Incarnation(int nodeId, int incarnation, int snapshotLoads) {
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
            Incarnation key = new Incarnation(node.id(), node.incarnation(), node.loadedSnapshots().size());
            List<SimNode.Applied> applied = node.applied();
            if (!verifiedCount.containsKey(key) && !node.loadedSnapshots().isEmpty()) {
                checkSnapshotState(cluster, node, committed);
            }
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

    private static void checkSnapshotState(SimCluster cluster, SimNode node, List<LogEntry> committed) {
        long end = node.loadedSnapshots().get(node.loadedSnapshots().size() - 1).endOffset();
        if (end > committed.size()) {
            throw cluster.violation("node " + node.id() + " loaded a snapshot ending at " + end
                    + " beyond the committed log end " + committed.size());
        }
        int index = 0;
        for (int offset = 0; offset < end; offset++) {
            LogEntry entry = committed.get(offset);
            if (!entry.isData()) {
                continue;
            }
            if (index >= node.applied().size() || node.applied().get(index).offset() != offset
                    || !Arrays.equals(node.applied().get(index).payload(), entry.payload())) {
                throw cluster.violation("node " + node.id() + " loaded a snapshot ending at " + end
                        + " whose state differs from the committed records at offset " + offset);
            }
            index++;
        }
    }
}
