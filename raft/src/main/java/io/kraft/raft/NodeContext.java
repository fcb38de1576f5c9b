package io.kraft.raft;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * What the parts of one node share: its settings, logical clock and randomness, its view of the log and the
 * snapshots (both read only: every write goes out through the next {@link Ready}), and the work collected for that
 * Ready. One per {@link RaftNode}; like the node, not thread-safe.
 */
final class NodeContext {
    final RaftConfig config;
    final int nodeId;
    /** Every voter but this node, sorted: whom votes and announcements go to, in a replayable order. */
    final List<Integer> otherVoters;
    final RandomGenerator random;
    final LogView log;
    final ReadableSnapshotStore snapshots;
    final ReadyBuilder out = new ReadyBuilder();
    private long nowTick;

    NodeContext(RaftConfig config, ReadableRaftLog log, ReadableSnapshotStore snapshots, RandomGenerator random) {
        this.config = config;
        this.nodeId = config.nodeId();
        this.otherVoters = config.voterIds().stream().filter(id -> id != nodeId).sorted().toList();
        this.random = random;
        this.log = new LogView(log, snapshots.latest());
        this.snapshots = snapshots;
    }

    long now() {
        return nowTick;
    }

    void advanceClock() {
        nowTick++;
    }

    boolean isVoter(int id) {
        return config.voterIds().contains(id);
    }

    /** An election timeout drawn between one and two configured timeouts, so voters rarely stand together. */
    int randomElectionTimeoutTicks() {
        return config.electionTimeoutTicks() + random.nextInt(config.electionTimeoutTicks());
    }

    /** The tick after a random election backoff: when a lost round is retried. */
    long backoffDeadlineTick() {
        return nowTick + 1 + random.nextInt(config.electionBackoffMaxTicks());
    }

    void send(RaftMessage message) {
        out.send(message);
    }

    static int leaderOrNone(RoleState state) {
        return state.leaderId().orElse(RaftMessage.NO_LEADER);
    }
}
