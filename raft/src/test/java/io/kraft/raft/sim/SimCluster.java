package io.kraft.raft.sim;

import io.kraft.raft.LogEntry;
import io.kraft.raft.RaftConfig;
import io.kraft.raft.RaftMessage;
import io.kraft.raft.Role;
import io.kraft.raft.Voter;
import io.kraft.raft.VoterBootstrap;
import io.kraft.raft.VoterSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * A whole quorum under one seeded scheduler: voters and observers on a {@link SimNetwork}, each ticking on its own
 * slightly drifting clock, with every {@link Invariant} checked after every event. One time unit is a tenth of a
 * nominal tick.
 */
final class SimCluster {
    static final int TICK_UNITS = 10;
    static final int ELECTION_TIMEOUT_TICKS = 10;
    static final int FETCH_TIMEOUT_TICKS = 20;

    /** An append the leader reported as committed: its records must sit at these offsets in the committed log. */
    record AcknowledgedAppend(long lastOffset, List<byte[]> records) {
    }

    /** A client append handed to a leader: its records are numbered {@code firstRecord..lastRecord}. */
    record SubmittedAppend(long firstRecord, long lastRecord) {
    }

    private static final String RECORD_MARK = "-record-";

    private final long seed;
    private final Random random;
    private final SimScheduler scheduler = new SimScheduler();
    private final SimNetwork network;
    private final Map<Integer, SimNode> nodes = new TreeMap<>();
    private final Set<Integer> voterIds = new TreeSet<>();
    private final List<LogEntry> committed = new ArrayList<>();
    private final List<AcknowledgedAppend> acknowledged = new ArrayList<>();
    /** Every append handed to a leader, by its first record's number. */
    private final TreeMap<Long, SubmittedAppend> submitted = new TreeMap<>();
    /** Decides the workload's batch sizes, apart from {@link #random} so the fault schedule does not depend on them. */
    private final Random batchSizes;
    private final int fetchMaxEntries;
    private final List<Invariant> invariants;
    private final Random corruption;
    private long recordCounter;
    private boolean workloadRunning;
    private long corruptedSnapshotChunks;
    private boolean refuseConnections = true;
    private long voterChangesRequested;
    private final boolean dynamicVoters;
    private VoterSet committedVoters;
    private int committedScannedForVoters;

    SimCluster(long seed, int voterCount, int observerCount) {
        this(seed, voterCount, observerCount, false);
    }

    /**
     * A cluster of {@code voterCount} voters and {@code observerCount} observers; with {@code dynamicVoters} the
     * voters come from a bootstrap checkpoint (KIP-853) and the observers are formatted without one, so they can be
     * added later.
     */
    SimCluster(long seed, int voterCount, int observerCount, boolean dynamicVoters) {
        this.seed = seed;
        this.dynamicVoters = dynamicVoters;
        this.random = new Random(seed);
        this.network = new SimNetwork(scheduler, new Random(seed + 1), this::deliver);
        this.corruption = new Random(seed + 2);
        this.batchSizes = new Random(seed + 3);
        for (int id = 1; id <= voterCount; id++) {
            voterIds.add(id);
        }
        this.invariants = List.of(new CommittedLogsMatch(), new SingleLeaderPerEpoch(), new HighWatermarkMonotonic(),
                new LeaderLogAppendOnly(), new CommittedEntriesNeverLost(), new StateMachinesApplyCommitted(),
                new AppendsAcknowledgedOnlyWhenCommitted(), new AcknowledgedEntriesAreDurable(),
                new AppendedBatchesCommitWhole(), new LogsHoldWholeBatches(),
                new StateMachinesLearnAnEpochBeforeItsRecords(), new VoterChangesOneAtATime());
        // Small fetches make followers acknowledge part of a leader's tail, which exercises the commit rule.
        this.fetchMaxEntries = 4 + random.nextInt(13);
        // Small chunks so a snapshot transfer takes many round trips, and faults hit it mid-way.
        int snapshotChunkBytes = 256 + random.nextInt(1024);
        for (int id = 1; id <= voterCount + observerCount; id++) {
            RaftConfig config = new RaftConfig(id, voterIds, ELECTION_TIMEOUT_TICKS, FETCH_TIMEOUT_TICKS,
                    ELECTION_TIMEOUT_TICKS, 10, 4, fetchMaxEntries, snapshotChunkBytes);
            VoterBootstrap bootstrap = !dynamicVoters ? null : VoterBootstrap.dynamic(
                    id <= voterCount ? initialVoters() : VoterSet.empty(), directoryOf(id));
            SimNode node = new SimNode(config, bootstrap, scheduler, network, seed * 7919 + id, 3 * TICK_UNITS);
            nodes.put(id, node);
            // Clock drift: each node's tick lasts between 0.9 and 1.1 nominal ticks.
            int tickUnits = TICK_UNITS - 1 + random.nextInt(3);
            scheduleTicks(node, tickUnits, 1 + random.nextInt(tickUnits));
        }
    }

    private void scheduleTicks(SimNode node, int tickUnits, long delay) {
        scheduler.schedule(delay, "tick node " + node.id(), () -> {
            node.tick();
            scheduleTicks(node, tickUnits, tickUnits);
        });
    }

    private void deliver(RaftMessage message) {
        SimNode node = nodes.get(message.destination());
        if (node != null && node.isUp()) {
            node.deliver(corruptSometimes(message));
        } else if (node != null && refuseConnections
                && (message instanceof RaftMessage.FetchRequest || message instanceof RaftMessage.VoteRequest)) {
            // A dead process refuses connections: the sender learns at once, as a real transport would.
            nodes.get(message.source()).peerUnreachable(message.destination());
        }
    }

    /** Flips a bit in a few snapshot chunks on the wire: the receiver must reject them and fetch again. */
    private RaftMessage corruptSometimes(RaftMessage message) {
        if (message instanceof RaftMessage.FetchSnapshotResponse chunk && chunk.data().length > 0
                && corruption.nextInt(20) == 0) {
            corruptedSnapshotChunks++;
            byte[] data = chunk.data().clone();
            data[corruption.nextInt(data.length)] ^= (byte) (1 << corruption.nextInt(8));
            return new RaftMessage.FetchSnapshotResponse(chunk.source(), chunk.destination(), chunk.epoch(),
                    chunk.leaderId(), chunk.error(), chunk.snapshotId(), chunk.sizeBytes(), chunk.position(), data,
                    chunk.crc32c(), chunk.lastOfResponse());
        }
        return message;
    }

    /** With false, a crashed node silently drops what is sent to it, like a hung process or a lost network. */
    void refuseConnections(boolean refuse) {
        this.refuseConnections = refuse;
    }

    long corruptedSnapshotChunks() {
        return corruptedSnapshotChunks;
    }

    /** How many restarts found a log that a crash left ending inside a batch. */
    long tornBatchRestarts() {
        return nodes.values().stream().mapToLong(SimNode::tornBatchRestarts).sum();
    }

    /** How many incoming snapshot transfers a crash tore (part of the last chunk lost, sometimes junk left). */
    long tornSnapshotTransfers() {
        return nodes.values().stream().mapToLong(SimNode::tornSnapshotTransfers).sum();
    }

    // ------------------------------------------------------------ running

    /** Runs events for {@code units} of simulated time, checking every invariant after each one. */
    void runFor(long units) {
        long until = scheduler.now() + units;
        while (scheduler.runNext(until)) {
            checkInvariants();
        }
    }

    /** Runs until {@code condition} holds (checked after every event) or {@code maxUnits} pass; returns whether it held. */
    boolean runUntil(BooleanSupplier condition, long maxUnits) {
        long until = scheduler.now() + maxUnits;
        if (condition.getAsBoolean()) {
            return true;
        }
        while (scheduler.runNext(until)) {
            checkInvariants();
            if (condition.getAsBoolean()) {
                return true;
            }
        }
        return condition.getAsBoolean();
    }

    void checkInvariants() {
        for (Invariant invariant : invariants) {
            invariant.check(this);
        }
    }

    InvariantViolation violation(String problem) {
        return new InvariantViolation(describe(problem));
    }

    /** The problem plus seed, time, last event and every node's state: what a failure report needs. */
    String describe(String problem) {
        StringBuilder message = new StringBuilder(problem)
                .append("\n  seed=").append(seed).append(" (replay with -Dkraft.seed=").append(seed).append(')')
                .append(" time=").append(scheduler.now()).append(" after event: ").append(scheduler.lastEvent());
        for (SimNode node : nodes.values()) {
            message.append("\n  ").append(node);
        }
        return message.toString();
    }

    // ------------------------------------------------------------ client workload

    /** Appends records to the current leader, if any, remembering what it acknowledges. */
    Optional<CompletableFuture<Long>> appendToLeader(int recordCount) {
        Optional<SimNode> leader = leader();
        if (leader.isEmpty()) {
            return Optional.empty();
        }
        List<byte[]> records = new ArrayList<>();
        submitted.put(recordCounter, new SubmittedAppend(recordCounter, recordCounter + recordCount - 1));
        for (int i = 0; i < recordCount; i++) {
            records.add(("seed-" + seed + RECORD_MARK + recordCounter++).getBytes(StandardCharsets.UTF_8));
        }
        CompletableFuture<Long> future = leader.get().raft().append(records);
        future.thenAccept(lastOffset -> acknowledged.add(new AcknowledgedAppend(lastOffset, records)));
        leader.get().processReady();
        checkInvariants();
        return Optional.of(future);
    }

    /**
     * Keeps appending batches to whoever leads, every few ticks, until the end of the run: mostly small ones, some
     * longer than a fetch may carry.
     */
    void startWorkload(int meanIntervalUnits) {
        workloadRunning = true;
        scheduleWorkload(meanIntervalUnits);
    }

    /** Stops the background load, so that a liveness check measures recovery rather than a race with new appends. */
    void stopWorkload() {
        workloadRunning = false;
    }

    private void scheduleWorkload(int meanIntervalUnits) {
        int size = workloadBatchSize();
        // About two records per interval whatever the batch sizes: the logs, and so catching up, stay as long as
        // the liveness bound was set for.
        long delay = Math.max(1, (1 + random.nextInt(2 * meanIntervalUnits)) * (long) size / 2);
        scheduler.schedule(delay, "client append", () -> {
            if (workloadRunning) {
                appendToLeader(size);
                scheduleWorkload(meanIntervalUnits);
            }
        });
    }

    /** Mostly small batches, some of several fetches' worth: those must still travel and commit whole. */
    private int workloadBatchSize() {
        int kind = batchSizes.nextInt(10);
        if (kind < 6) {
            return 1 + batchSizes.nextInt(3);
        }
        if (kind < 9) {
            return 2 + batchSizes.nextInt(fetchMaxEntries);
        }
        return fetchMaxEntries + 1 + batchSizes.nextInt(2 * fetchMaxEntries);
    }

    /** The append a workload record belongs to, or null for a record the workload did not append. */
    SubmittedAppend appendOf(byte[] payload) {
        long record = recordNumber(payload);
        var floor = record < 0 ? null : submitted.floorEntry(record);
        return floor == null || floor.getValue().lastRecord() < record ? null : floor.getValue();
    }

    /** The workload's number of a record, or -1 if it is not one of its records. */
    static long recordNumber(byte[] payload) {
        String text = new String(payload, StandardCharsets.UTF_8);
        int mark = text.lastIndexOf(RECORD_MARK);
        if (!text.startsWith("seed-") || mark < 0) {
            return -1;
        }
        try {
            return Long.parseLong(text.substring(mark + RECORD_MARK.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    // ------------------------------------------------------------ faults

    SimNetwork network() {
        return network;
    }

    /**
     * Stops a node. When connections are refused, its peers' requests in flight to it (the followers' held fetches)
     * fail a moment later, as a real transport reports a dead process.
     */
    void crash(int nodeId) {
        SimNode victim = nodes.get(nodeId);
        if (!victim.isUp()) {
            return;
        }
        victim.crash();
        if (refuseConnections) {
            for (SimNode peer : nodes.values()) {
                if (peer.id() != nodeId) {
                    scheduler.schedule(1 + random.nextInt(TICK_UNITS), "connection to " + nodeId + " lost at node "
                            + peer.id(), () -> peer.peerUnreachable(nodeId));
                }
            }
        }
    }

    void restart(int nodeId) {
        nodes.get(nodeId).restart();
        checkInvariants();
    }

    /** Removes every network fault and restarts every stopped node. */
    void heal() {
        network.healLinks();
        network.setFaults(0, 0, 1, 20);
        for (SimNode node : nodes.values()) {
            node.restart();
        }
        checkInvariants();
    }

    /**
     * Every so often for {@code durationUnits}, a random running member snapshots its state machine, and usually
     * deletes the log prefix the snapshot covers.
     */
    void takeRandomSnapshots(long durationUnits, int meanIntervalUnits) {
        long end = scheduler.now() + durationUnits;
        scheduleSnapshot(end, meanIntervalUnits);
    }

    private void scheduleSnapshot(long end, int meanIntervalUnits) {
        long delay = 1 + random.nextInt(2 * meanIntervalUnits);
        if (scheduler.now() + delay >= end) {
            return;
        }
        scheduler.schedule(delay, "snapshot", () -> {
            List<Integer> ids = new ArrayList<>(nodes.keySet());
            nodes.get(ids.get(random.nextInt(ids.size()))).takeSnapshot(random.nextInt(4) != 0);
            scheduleSnapshot(end, meanIntervalUnits);
        });
    }

    /**
     * Schedules random faults for {@code durationUnits}: partitions (symmetric and one-way), crashes and restarts,
     * and changing loss, duplication and delay.
     */
    void injectRandomFaults(long durationUnits) {
        long end = scheduler.now() + durationUnits;
        scheduleNextFault(end);
    }

    private void scheduleNextFault(long end) {
        long delay = 20 + random.nextInt(40 * TICK_UNITS);
        if (scheduler.now() + delay >= end) {
            return;
        }
        scheduler.schedule(delay, "fault", () -> {
            injectOneFault();
            scheduleNextFault(end);
        });
    }

    private void injectOneFault() {
        List<Integer> ids = new ArrayList<>(nodes.keySet());
        Optional<SimNode> leader = leader();
        // Half the faults hit the leader: that is where elections, truncation and the commit rule get exercised.
        int a = leader.isPresent() && random.nextBoolean() ? leader.get().id() : ids.get(random.nextInt(ids.size()));
        int b = ids.get(random.nextInt(ids.size()));
        switch (random.nextInt(8)) {
            case 0 -> network.isolate(a, ids);
            case 1 -> {
                if (a != b) {
                    network.blockOneWay(a, b);
                }
            }
            case 2 -> {
                // split into two random groups
                for (int x : ids) {
                    for (int y : ids) {
                        if (x < y && random.nextBoolean()) {
                            network.block(x, y);
                        }
                    }
                }
            }
            case 3 -> network.healLinks();
            case 4 -> crash(a);
            case 5 -> nodes.get(a).restart();
            case 6 -> network.setFaults(random.nextDouble() * 0.3, random.nextDouble() * 0.2, 1,
                    5 + random.nextInt(6 * TICK_UNITS));
            default -> {
                for (SimNode node : nodes.values()) {
                    node.restart();
                }
            }
        }
    }

    /** Node {@code id}'s metadata log directory in a dynamic quorum. */
    static UUID directoryOf(int id) {
        return new UUID(853, id);
    }

    /** The voters the cluster started with, with their directories in a dynamic quorum. */
    VoterSet initialVoters() {
        if (!dynamicVoters) {
            return VoterSet.ofIds(voterIds);
        }
        return VoterSet.of(voterIds.stream().map(id -> new Voter(id, directoryOf(id), "sim:" + id)).toList());
    }

    /**
     * Every so often for {@code durationUnits}, asks the running leader to add a member that is not a voter or to
     * remove a voter (never the last), as an operator would; most requests are refused (a change is pending, the
     * member has not caught up, the leader is new), which is part of what is tested.
     */
    void changeVotersRandomly(long durationUnits, int meanIntervalUnits) {
        long end = scheduler.now() + durationUnits;
        scheduleVoterChange(end, meanIntervalUnits);
    }

    private void scheduleVoterChange(long end, int meanIntervalUnits) {
        long delay = 1 + random.nextInt(2 * meanIntervalUnits);
        if (scheduler.now() + delay >= end) {
            return;
        }
        scheduler.schedule(delay, "voter change", () -> {
            leader().ifPresent(leader -> {
                VoterSet voters = leader.raft().voters();
                List<Integer> ids = new ArrayList<>(nodes.keySet());
                int id = ids.get(random.nextInt(ids.size()));
                if (!voters.contains(id)) {
                    leader.raft().addVoter(new Voter(id, directoryOf(id), "sim:" + id));
                    voterChangesRequested++;
                } else if (voters.size() > 2) {
                    leader.raft().removeVoter(id, directoryOf(id));
                    voterChangesRequested++;
                }
                leader.processReady();
            });
            scheduleVoterChange(end, meanIntervalUnits);
        });
    }

    /** The voter set of the latest committed voters record, or the initial set. */
    VoterSet committedVoters() {
        if (committedVoters == null) {
            committedVoters = initialVoters();
        }
        for (; committedScannedForVoters < committed.size(); committedScannedForVoters++) {
            LogEntry entry = committed.get(committedScannedForVoters);
            if (entry.type() == LogEntry.EntryType.VOTERS) {
                committedVoters = VoterSet.decode(entry.payload());
            }
        }
        return committedVoters;
    }

    /**
     * Waits up to {@code boundUnits} for a leader to commit a fresh one-record append, trying again under each new
     * leader; the committed offset, or -1 if none committed in time.
     */
    long commitAProbe(long boundUnits) {
        long start = now();
        while (now() - start < boundUnits) {
            if (!runUntil(() -> leader().isPresent(), boundUnits - (now() - start))) {
                return -1;
            }
            CompletableFuture<Long> probe = appendToLeader(1).orElseThrow();
            runUntil(probe::isDone, boundUnits - (now() - start));
            if (probe.isDone() && !probe.isCompletedExceptionally()) {
                return probe.join();
            }
        }
        return -1;
    }

    long voterChangesRequested() {
        return voterChangesRequested;
    }

    // ------------------------------------------------------------ views for scenarios and invariants

    long seed() {
        return seed;
    }

    long now() {
        return scheduler.now();
    }

    long eventsRun() {
        return scheduler.eventsRun();
    }

    SimNode node(int id) {
        return nodes.get(id);
    }

    Collection<SimNode> nodes() {
        return nodes.values();
    }

    Set<Integer> voterIds() {
        return voterIds;
    }

    int majority() {
        return voterIds.size() / 2 + 1;
    }

    List<LogEntry> committed() {
        return committed;
    }

    List<AcknowledgedAppend> acknowledged() {
        return acknowledged;
    }

    /** The running leader of the highest epoch, if any. */
    Optional<SimNode> leader() {
        return nodes.values().stream()
                .filter(n -> n.isUp() && n.raft().role() == Role.LEADER)
                .max(Comparator.comparingInt(n -> n.raft().epoch()));
    }
}
