package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.raft.RaftMessage.VoteRequest;
import io.kraft.raft.RaftMessage.VoteResponse;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** One node of voters 1-3 (or an observer) with in-memory storage, driven by hand: ticks, messages, flushes. */
final class HandDrivenNode {
    static final Set<Integer> VOTERS = Set.of(1, 2, 3);
    static final int ELECTION_TIMEOUT_TICKS = 10;
    static final int FETCH_TIMEOUT_TICKS = 20;

    final InMemoryRaftLog log = new InMemoryRaftLog();
    final InMemorySnapshotStore snapshots = new InMemorySnapshotStore();
    private final int fetchMaxEntries;
    RaftNode node;

    HandDrivenNode(int nodeId, QuorumState persisted) {
        this(nodeId, persisted, 100);
    }

    HandDrivenNode(int nodeId, QuorumState persisted, int fetchMaxEntries) {
        this.fetchMaxEntries = fetchMaxEntries;
        start(nodeId, persisted);
    }

    /** (Re)starts the node on this storage, as after a restart. */
    void start(int nodeId, QuorumState persisted) {
        node = new RaftNode(new RaftConfig(nodeId, VOTERS, ELECTION_TIMEOUT_TICKS, FETCH_TIMEOUT_TICKS, 10, 10, 4,
                fetchMaxEntries, 8), log, snapshots, persisted, new Random(nodeId));
    }

    /** The next Ready with its writes carried out (the flush is {@link #flush}'s). */
    Ready ready() {
        return HandDriver.ready(node, log, snapshots);
    }

    /** The messages of the next Ready of one type. */
    <T extends RaftMessage> List<T> sent(Class<T> type) {
        return ready().messages().stream().filter(type::isInstance).map(type::cast).toList();
    }

    void flush() {
        log.flush();
        node.handleLogFlushed(log.endOffset());
    }

    void handle(RaftMessage message) {
        node.handle(message);
    }

    /** Node 1, elected leader of epoch 1 with voter 2's votes, its leader-change record written and flushed. */
    static HandDrivenNode leaderOfEpochOne() {
        return leaderOfEpochOne(100);
    }

    /** As {@link #leaderOfEpochOne()}, sending at most {@code fetchMaxEntries} entries a fetch (whole batches). */
    static HandDrivenNode leaderOfEpochOne(int fetchMaxEntries) {
        HandDrivenNode leader = new HandDrivenNode(1, QuorumState.INITIAL, fetchMaxEntries);
        leader.ready();
        VoteRequest preVote = null;
        for (int tick = 0; tick < 100 && preVote == null; tick++) {
            leader.node.tick();
            preVote = leader.sent(VoteRequest.class).stream().findFirst().orElse(null);
        }
        leader.handle(new VoteResponse(2, 1, 0, RaftMessage.NO_LEADER, true, true, preVote.epoch()));
        leader.ready();
        leader.handle(new VoteResponse(2, 1, 1, RaftMessage.NO_LEADER, true, false, 1));
        assertEquals(Role.LEADER, leader.node.role());
        leader.ready();
        leader.flush();
        return leader;
    }
}
