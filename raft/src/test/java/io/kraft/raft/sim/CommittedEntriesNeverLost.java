package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import io.kraft.raft.ReadableRaftLog;
import io.kraft.raft.VoterSet;
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
        // With voter changes (KIP-853) the entry was committed by a majority of a set in force on its leader: the
        // committed set, or one change on from it that some member (running, or when it crashed) used. Static quorums
        // have the one set.
        java.util.Set<VoterSet> sets = new java.util.LinkedHashSet<>();
        sets.add(cluster.committedVoters());
        for (SimNode node : cluster.nodes()) {
            sets.add(node.votersInForce());
        }
        int best = 0;
        for (VoterSet set : sets) {
            int durableCopies = 0;
            for (SimNode node : cluster.nodes()) {
                if (set.contains(node.id()) && holdsDurably(node, last)) {
                    durableCopies++;
                }
            }
            if (durableCopies >= set.majority()) {
                best = -1;
                break;
            }
            best = Math.max(best, durableCopies);
        }
        if (best >= 0) {
            throw cluster.violation("committed " + last + " is durable on only " + best + " voters of any set of "
                    + sets.stream().map(VoterSet::ids).toList() + "; voters records on disk: " + votersOnDisks(cluster));
        }
        int newestEpoch = cluster.nodes().stream().mapToInt(SimNode::persistedEpoch).max().orElse(0);
        Optional<SimNode> leader = cluster.leader().filter(l -> l.raft().epoch() == newestEpoch);
        if (leader.isPresent() && !holds(leader.get().log(), last)) {
            throw cluster.violation("newest leader " + leader.get().id() + " lacks committed " + last);
        }
    }

    /** Each member's voters records (offset, epoch, ids) and flushed end, to explain a violation. */
    private static String votersOnDisks(SimCluster cluster) {
        StringBuilder out = new StringBuilder();
        for (SimNode node : cluster.nodes()) {
            out.append("\n    node ").append(node.id()).append(" flushed to ").append(node.disk().flushedEndOffset())
                    .append(':');
            ReadableRaftLog disk = node.disk();
            for (LogEntry entry : disk.read(disk.startOffset(), (int) (disk.endOffset() - disk.startOffset()))) {
                if (entry.type() == LogEntry.EntryType.VOTERS) {
                    out.append(' ').append(entry.offset()).append('@').append(entry.epoch())
                            .append(VoterSet.decode(entry.payload()).ids());
                }
            }
        }
        return out.toString();
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
