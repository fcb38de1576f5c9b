package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import io.kraft.raft.VoterSet;
import java.util.List;

/**
 * KIP-853's safety rule for voter changes: the committed voter sets follow one another one voter at a time, so any
 * majority of one meets any majority of the next; and every running member whose log holds the latest committed
 * set is at most one voter away from it (at most one change is ever uncommitted), so the majorities of the sets
 * that can be in force together intersect. A member that knows no set (formatted without one) only observes.
 */
final class VoterChangesOneAtATime implements Invariant {
    private int scanned;
    private VoterSet committedSet;
    private long committedSetOffset = -1;

    @Override
    public void check(SimCluster cluster) {
        if (committedSet == null) {
            committedSet = cluster.initialVoters();
        }
        List<LogEntry> committed = cluster.committed();
        for (; scanned < committed.size(); scanned++) {
            LogEntry entry = committed.get(scanned);
            if (entry.type() == LogEntry.EntryType.VOTERS) {
                VoterSet next = VoterSet.decode(entry.payload());
                if (committedSet.distanceTo(next) > 1 || !committedSet.majoritiesIntersect(next)) {
                    throw cluster.violation("committed voter set " + next + " at " + entry.offset()
                            + " is more than one voter from the previous " + committedSet);
                }
                committedSet = next;
                committedSetOffset = entry.offset();
            }
        }
        for (SimNode node : cluster.nodes()) {
            if (!node.isUp() || !holdsCommittedSet(node)) {
                continue;
            }
            VoterSet inForce = node.raft().voters();
            if (inForce.isEmpty()) {
                continue; // formatted without a set, or its set is unknown after a fetched snapshot: it only observes
            }
            if (inForce.distanceTo(committedSet) > 1 || !inForce.majoritiesIntersect(committedSet)) {
                throw cluster.violation("node " + node.id() + " uses voters " + inForce
                        + ", more than one voter from the committed " + committedSet);
            }
        }
    }

    private boolean holdsCommittedSet(SimNode node) {
        if (committedSetOffset < 0) {
            return true;
        }
        if (committedSetOffset < node.log().startOffset()) {
            return node.raft().highWatermark() > committedSetOffset;
        }
        return node.log().endOffset() > committedSetOffset
                && node.log().read(committedSetOffset, 1).get(0).type() == LogEntry.EntryType.VOTERS;
    }
}
