package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import io.kraft.raft.ReadableRaftLog;
import java.util.List;
import java.util.Optional;

/**
 * A committed entry survives any crashes (in a log, or in a snapshot where the log prefix was deleted): the last
 * committed entry is on the disk (flushed) of a majority of voters, and the leader of the newest epoch anybody has
 * reached holds it (leader completeness; a deposed leader of an older epoch need not).
 */
final class CommittedEntriesNeverLost implements Invariant {

    @Override
    public void check(SimCluster cluster) {
        List<LogEntry> committed = cluster.committed();
        if (committed.isEmpty()) {
            return;
        }
        LogEntry last = committed.get(committed.size() - 1);
        int durableCopies = 0;
        for (SimNode node : cluster.nodes()) {
            if (node.isVoter() && holdsDurably(node, last)) {
                durableCopies++;
            }
        }
        if (durableCopies < cluster.majority()) {
            throw cluster.violation("committed " + last + " is durable on only " + durableCopies + " voters");
        }
        int newestEpoch = cluster.nodes().stream().mapToInt(SimNode::persistedEpoch).max().orElse(0);
        Optional<SimNode> leader = cluster.leader().filter(l -> l.raft().epoch() == newestEpoch);
        if (leader.isPresent() && !holds(leader.get().log(), last)) {
            throw cluster.violation("newest leader " + leader.get().id() + " lacks committed " + last);
        }
    }

    private static boolean holdsDurably(SimNode node, LogEntry entry) {
        return node.disk().flushedEndOffset() > entry.offset() && holds(node.disk(), entry);
    }

    /** In the log, or below its start: then in a durable snapshot, which only ever holds committed records. */
    private static boolean holds(ReadableRaftLog log, LogEntry entry) {
        if (entry.offset() < log.startOffset()) {
            return true;
        }
        return log.endOffset() > entry.offset() && log.read(entry.offset(), 1).get(0).sameContentAs(entry);
    }
}
