package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import io.kraft.raft.ReadableRaftLog;
import java.util.List;

/**
 * No log ever holds part of a batch followed by something else (a leader-change record, another epoch, a batch
 * that was not its rest), and no running member's log as its node sees it ends inside a batch: what a member
 * acknowledges, is elected with and commits is whole batches. A member's disk may end inside a batch after a crash
 * tore its last write, until the restarted node truncates it. Checked after every event over the tail of each log,
 * where every write lands.
 */
final class LogsHoldWholeBatches implements Invariant {
    /** How much of each log's tail is checked: more than any write since the last event can change. */
    private static final int TAIL_ENTRIES = 64;

    @Override
    public void check(SimCluster cluster) {
        for (SimNode node : cluster.nodes()) {
            if (node.isUp()) {
                check(cluster, node, node.log(), "log", true);
            }
            check(cluster, node, node.disk(), "disk", false);
        }
    }

    private static void check(SimCluster cluster, SimNode node, ReadableRaftLog log, String what,
                              boolean mustEndBetweenBatches) {
        long from = Math.max(log.startOffset(), log.endOffset() - TAIL_ENTRIES);
        List<LogEntry> entries = log.read(from, TAIL_ENTRIES);
        for (int i = 1; i < entries.size(); i++) {
            LogEntry previous = entries.get(i - 1);
            LogEntry entry = entries.get(i);
            if (!previous.endsBatch() && (!entry.isData() || entry.epoch() != previous.epoch())) {
                throw cluster.violation("node " + node.id() + "'s " + what + " holds part of a batch ending at "
                        + previous + ", followed by " + entry);
            }
        }
        if (mustEndBetweenBatches && !entries.isEmpty() && !entries.get(entries.size() - 1).endsBatch()) {
            throw cluster.violation("node " + node.id() + "'s " + what + " ends inside a batch, at "
                    + entries.get(entries.size() - 1));
        }
    }
}
