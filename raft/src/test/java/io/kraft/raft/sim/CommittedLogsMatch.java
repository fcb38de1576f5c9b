package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * No two members ever hold different entries below their high watermarks: every member's committed prefix is a
 * prefix of one cluster-wide committed log, which this check also builds.
 */
final class CommittedLogsMatch implements Invariant {
    private record Incarnation(int nodeId, int incarnation) {
    }

    private final Map<Incarnation, Long> verifiedUpTo = new HashMap<>();

    @Override
    public void check(SimCluster cluster) {
        List<LogEntry> committed = cluster.committed();
        for (SimNode node : cluster.nodes()) {
            if (!node.isUp()) {
                continue;
            }
            Incarnation key = new Incarnation(node.id(), node.incarnation());
            // Below the log start only a snapshot remains; SnapshotsMatchCommittedState checks those.
            long from = Math.max(verifiedUpTo.getOrDefault(key, 0L), node.log().startOffset());
            long highWatermark = node.raft().highWatermark();
            if (from >= highWatermark) {
                continue;
            }
            List<LogEntry> entries = node.log().read(from, (int) (highWatermark - from));
            for (LogEntry entry : entries) {
                long offset = entry.offset();
                if (offset < committed.size()) {
                    if (!committed.get((int) offset).sameContentAs(entry)) {
                        throw cluster.violation("node " + node.id() + " committed " + entry + " but offset "
                                + offset + " was committed as " + committed.get((int) offset));
                    }
                } else if (offset == committed.size()) {
                    committed.add(entry);
                } else {
                    throw cluster.violation("gap in committed log at " + committed.size());
                }
            }
            verifiedUpTo.put(key, highWatermark);
        }
    }
}
