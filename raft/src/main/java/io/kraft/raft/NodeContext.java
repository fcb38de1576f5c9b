package io.kraft.raft;

import java.util.List;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * What the parts of one node share: its settings, logical clock and randomness, its view of the log and the
 * snapshots (both read only: every write goes out through the next {@link Ready}), and the work collected for that
 * Ready. One per {@link RaftNode}; like the node, not thread-safe.
 */
final class NodeContext {
    final RaftConfig config;
    final int nodeId;
    /** This node's metadata log directory (KIP-853): a wiped and reformatted node has a new one. */
    final UUID directoryId;
    final VoterHistory voterHistory;
    final RandomGenerator random;
    final LogView log;
    final ReadableSnapshotStore snapshots;
    final ReadyBuilder out = new ReadyBuilder();
    private long nowTick;

    NodeContext(RaftConfig config, ReadableRaftLog log, ReadableSnapshotStore snapshots, RandomGenerator random,
                VoterBootstrap bootstrap) {
        this.config = config;
        this.nodeId = config.nodeId();
        this.directoryId = bootstrap.directoryId();
        this.random = random;
        this.log = new LogView(log, snapshots.latest());
        this.voterHistory = new VoterHistory(bootstrap.voters(), bootstrap.dynamic(), log);
        this.log.trackVoters(voterHistory);
        this.snapshots = snapshots;
    }

    long now() {
        return nowTick;
    }

    void advanceClock() {
        nowTick++;
    }

    /** The voter set in force: the latest the log states, committed or not (KIP-853). */
    VoterSet voters() {
        return voterHistory.latest();
    }

    boolean isVoter(int id) {
        return voters().contains(id);
    }

    /**
     * Whether a message from {@code id} may prove a newer epoch or name a leader to us: it is a voter we know, or we
     * know no voter at all (a controller waiting to be added, or one whose set is unknown after a fetched snapshot).
     */
    boolean trusts(int id) {
        return isVoter(id) || voters().isEmpty();
    }

    /** Whether this node, with its own log directory, is one of the voters in force. */
    boolean isLocalVoter() {
        return voters().contains(nodeId, directoryId);
    }

    /** Every voter but this node, sorted: whom votes and announcements go to, in a replayable order. */
    List<Integer> otherVoters() {
        return voters().ids().stream().filter(id -> id != nodeId).toList();
    }

    /** Whom an observer asks for the leader: the voters in force, else those it was bootstrapped with. */
    List<Integer> discoveryTargets() {
        List<Integer> voters = otherVoters();
        return voters.isEmpty() ? config.voterIds().stream().filter(id -> id != nodeId).toList() : voters;
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
