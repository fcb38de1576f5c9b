package io.kraft.raft;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Voters 1-3 with in-memory storage, driven by hand: a test decides whom to tick, which node is down and which
 * messages are lost. Every Ready is carried out at once (a synchronous driver: write, send, flush and report), and
 * messages are delivered in the order they were sent until none is left.
 */
final class HandDrivenQuorum {
    static final Set<Integer> VOTERS = Set.of(1, 2, 3);

    /** One voter: its node, its disk, and what its state machine was handed. */
    static final class Member {
        final int id;
        final InMemoryRaftLog log = new InMemoryRaftLog();
        final InMemorySnapshotStore snapshots = new InMemorySnapshotStore();
        final List<CommittedBatch> committed = new ArrayList<>();
        RaftNode node;
        boolean up = true;

        Member(int id, int fetchMaxEntries) {
            this.id = id;
            this.node = new RaftNode(new RaftConfig(id, VOTERS, 10, 20, 10, 10, 4, fetchMaxEntries), log, snapshots,
                    QuorumState.INITIAL, new Random(id));
        }

        /** A member of a dynamic quorum (KIP-853) bootstrapped with {@code voters}, its directory {@link #dir}. */
        Member(int id, VoterSet voters) {
            this.id = id;
            this.node = new RaftNode(new RaftConfig(id, voters.ids(), 10, 20, 10, 10, 4, 100), log, snapshots,
                    QuorumState.INITIAL, new Random(id), VoterBootstrap.dynamic(voters, dir(id)));
        }

        /** Every record handed to the state machine, in order. */
        List<byte[]> committedRecords() {
            return committed.stream().flatMap(batch -> batch.records().stream()).toList();
        }
    }

    private final Map<Integer, Member> members = new TreeMap<>();
    private final Deque<RaftMessage> inFlight = new ArrayDeque<>();
    private final Set<Integer> cutOff = new HashSet<>();

    /** Members {@code ids} of a dynamic quorum whose bootstrap checkpoint names {@code voters} (KIP-853). */
    HandDrivenQuorum(Set<Integer> ids, VoterSet voters) {
        for (int id : new java.util.TreeSet<>(ids)) {
            members.put(id, new Member(id, voters));
        }
    }

    /** The log directory of member {@code id} in a dynamic quorum. */
    static java.util.UUID dir(int id) {
        return new java.util.UUID(7, id);
    }

    /** Voter {@code id} of a dynamic quorum, with its directory. */
    static Voter voter(int id) {
        return new Voter(id, dir(id), "localhost:" + (9000 + id));
    }

    HandDrivenQuorum(int fetchMaxEntries) {
        for (int id : VOTERS) {
            members.put(id, new Member(id, fetchMaxEntries));
        }
    }

    Member member(int id) {
        return members.get(id);
    }

    RaftNode node(int id) {
        return members.get(id).node;
    }

    /** The member stops: whatever it sends or is sent from now on is lost. */
    void crash(int id) {
        members.get(id).up = false;
    }

    /** Messages to and from the member are lost until {@link #reconnect}. */
    void disconnect(int id) {
        cutOff.add(id);
    }

    void reconnect(int id) {
        cutOff.remove(id);
    }

    /** Ticks {@code ids} (only them: the others' clocks stand still) until {@code done} holds, delivering as it goes. */
    void tickUntil(Predicate<HandDrivenQuorum> done, int... ids) {
        for (int tick = 0; tick < 1000 && !done.test(this); tick++) {
            for (int id : ids) {
                node(id).tick();
            }
            deliverAll();
        }
        if (!done.test(this)) {
            throw new AssertionError("ticking " + java.util.Arrays.toString(ids) + " got nowhere: " + members.values()
                    .stream().map(m -> m.node.toString()).toList());
        }
    }

    /** Node 1 stands and wins epoch 1, and every voter has its leader-change record. */
    static HandDrivenQuorum withNodeOneLeading(int fetchMaxEntries) {
        HandDrivenQuorum quorum = new HandDrivenQuorum(fetchMaxEntries);
        quorum.deliverAll();
        quorum.tickUntil(q -> q.node(1).role() == Role.LEADER, 1);
        return quorum;
    }

    /** Carries out every member's Ready and delivers what they send, until nothing moves. */
    void deliverAll() {
        collectReadies();
        while (!inFlight.isEmpty()) {
            RaftMessage message = inFlight.poll();
            Member destination = members.get(message.destination());
            if (destination.up && !cutOff.contains(message.destination()) && !cutOff.contains(message.source())) {
                destination.node.handle(message);
            }
            collectReadies();
        }
    }

    /** Takes the member's next Ready and carries out its writes, without sending its messages; returns them. */
    List<RaftMessage> takeReady(int id) {
        Member member = members.get(id);
        List<RaftMessage> sent = new ArrayList<>();
        while (member.node.hasReady()) {
            Ready ready = member.node.ready();
            ready.snapshotWrites().applyTo(member.snapshots, member.node);
            ready.logWrites().applyTo(member.log);
            sent.addAll(ready.messages());
            if (ready.flushLog()) {
                member.log.flush();
                member.node.handleLogFlushed(member.log.endOffset());
            }
            member.committed.addAll(ready.committed());
        }
        return sent;
    }

    /** Sends one message as if its sender's transport had. */
    void send(RaftMessage message) {
        inFlight.add(message);
    }

    private void collectReadies() {
        for (Member member : members.values()) {
            if (member.up) {
                List<RaftMessage> sent = takeReady(member.id);
                if (!cutOff.contains(member.id)) {
                    inFlight.addAll(sent);
                }
            }
        }
    }
}
