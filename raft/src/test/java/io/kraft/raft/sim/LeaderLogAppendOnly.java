package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import io.kraft.raft.Role;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** While a member leads an epoch its log only grows: it never truncates or rewrites an entry. */
final class LeaderLogAppendOnly implements Invariant {
    private record Term(int nodeId, int incarnation, int epoch) {
    }

    private final Map<Term, LogEntry> lastEntryByTerm = new HashMap<>();

    @Override
    public void check(SimCluster cluster) {
        for (SimNode node : cluster.nodes()) {
            if (!node.isUp() || node.raft().role() != Role.LEADER) {
                continue;
            }
            Term term = new Term(node.id(), node.incarnation(), node.raft().epoch());
            LogEntry previous = lastEntryByTerm.get(term);
            if (previous != null && previous.offset() >= node.log().startOffset()) {
                if (node.log().endOffset() <= previous.offset()) {
                    throw cluster.violation("leader " + node.id() + " log shrank below " + previous);
                }
                LogEntry now = node.log().read(previous.offset(), 1).get(0);
                if (!now.sameContentAs(previous)) {
                    throw cluster.violation("leader " + node.id() + " rewrote " + previous + " as " + now);
                }
            }
            long end = node.log().endOffset();
            if (end > node.log().startOffset()) {
                List<LogEntry> last = node.log().read(end - 1, 1);
                lastEntryByTerm.put(term, last.get(0));
            }
        }
    }
}
