package io.kraft.raft.sim;

import io.kraft.raft.CommittedBatch;
import io.kraft.raft.InMemoryQuorumStateStore;
import io.kraft.raft.InMemoryRaftLog;
import io.kraft.raft.InMemorySnapshotStore;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.RaftConfig;
import io.kraft.raft.VoterBootstrap;
import io.kraft.raft.VoterSet;
import io.kraft.raft.RaftMessage;
import io.kraft.raft.RaftNode;
import io.kraft.raft.ReadableRaftLog;
import io.kraft.raft.Ready;
import io.kraft.raft.SnapshotId;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * One simulated member: a {@link RaftNode} with a simulated disk (an in-memory log whose unflushed tail a crash
 * loses, a quorum-state store that survives, and a snapshot store whose incoming transfers a crash may tear), plus a
 * recording state machine whose snapshot is the list of records it applied. It carries out each {@link Ready} in the
 * documented order; log flushes complete after a random disk latency. Some members defer their log writes until a
 * flush (or some later event), as a driver with a storage thread may: the core must never need them earlier, and a
 * crash loses them. Every fetch a member sends is checked to acknowledge only what would survive its crash.
 */
final class SimNode {
    /** A record the state machine applied, for checking against the committed log. */
    record Applied(long offset, int epoch, byte[] payload) {
    }

    private final RaftConfig config;
    private final VoterBootstrap bootstrap;
    /** The voter set this member used when it last crashed (a set that was in force, possibly uncommitted). */
    private VoterSet votersAtCrash;
    private final SimScheduler scheduler;
    private final SimNetwork network;
    private final long seed;
    private final Random diskRandom;
    private final int maxDiskLatency;
    private final InMemoryQuorumStateStore stateStore = new InMemoryQuorumStateStore();
    private final InMemorySnapshotStore snapshots = new InMemorySnapshotStore();
    /** Decides the faults this class adds on top of the disk latency: deferred writes, torn snapshot chunks. */
    private final Random faultRandom;
    /** Whether this member applies log writes only when a flush (or a later event) comes, not when handed out. */
    private final boolean defersLogWrites;
    /** Log writes handed out but not yet applied to the disk, oldest first: a crash loses them. */
    private final List<Ready.LogWrites> unwrittenLogWrites = new ArrayList<>();
    /** The size of the chunk last written to each incoming snapshot this incarnation: what a crash may tear. */
    private final Map<SnapshotId, Integer> lastChunkBytes = new HashMap<>();
    private long tornSnapshotTransfers;
    /** Restarts on a disk whose log a crash left ending inside a batch, which the node must drop. */
    private long tornBatchRestarts;
    /** The first acknowledgement of a non-durable entry this member sent since the last check, or null. */
    private String unsafeAcknowledgement;
    /** The first committed batch handed over before its epoch was announced, since the last check, or null. */
    private String earlyRecords;
    /** The epoch of the last leader change handed to this incarnation's state machine. */
    private int announcedEpoch;
    /** Snapshots this incarnation's state machine loaded, oldest first. */
    private final List<SnapshotId> loadedSnapshots = new ArrayList<>();
    private InMemoryRaftLog log = new InMemoryRaftLog();
    private RaftNode raft;
    private int incarnation;
    private final List<Applied> applied = new ArrayList<>();
    private final List<LeaderAndEpoch> leaderChanges = new ArrayList<>();
    /** The committed batches this incarnation's state machine was handed, as handed. */
    private final List<CommittedBatch> deliveries = new ArrayList<>();

    SimNode(RaftConfig config, SimScheduler scheduler, SimNetwork network, long seed, int maxDiskLatency) {
        this(config, null, scheduler, network, seed, maxDiskLatency);
    }

    /** A member whose voter set starts from {@code bootstrap} (KIP-853), or from the static config when null. */
    SimNode(RaftConfig config, VoterBootstrap bootstrap, SimScheduler scheduler, SimNetwork network, long seed,
            int maxDiskLatency) {
        this.config = config;
        this.bootstrap = bootstrap == null ? VoterBootstrap.fromStatic(config) : bootstrap;
        this.scheduler = scheduler;
        this.network = network;
        this.seed = seed;
        this.diskRandom = new Random(seed ^ 0x5DEECE66DL);
        this.faultRandom = new Random(seed ^ 0x2545F4914F6CDD1DL);
        this.defersLogWrites = faultRandom.nextBoolean();
        this.maxDiskLatency = maxDiskLatency;
        start();
    }

    int id() {
        return config.nodeId();
    }

    /** The voter set in force on this member, or the one it used when it crashed. */
    VoterSet votersInForce() {
        return raft != null ? raft.voters() : votersAtCrash != null ? votersAtCrash : bootstrap.voters();
    }

    /** Whether this member votes in the set its log states now (the static set while it is down). */
    boolean isVoter() {
        return raft != null ? raft.voters().contains(id()) : config.isVoter();
    }

    boolean isUp() {
        return raft != null;
    }

    int incarnation() {
        return incarnation;
    }

    RaftNode raft() {
        return raft;
    }

    /** The log as this member sees it: the node's view while it runs, what is on its disk while it is down. */
    ReadableRaftLog log() {
        return raft != null ? raft.log() : log;
    }

    /** The log on this member's disk, which may lag what the node has handed out. */
    InMemoryRaftLog disk() {
        return log;
    }

    boolean defersLogWrites() {
        return defersLogWrites;
    }

    long tornSnapshotTransfers() {
        return tornSnapshotTransfers;
    }

    long tornBatchRestarts() {
        return tornBatchRestarts;
    }

    /** The epoch in this node's durable quorum state: survives crashes. */
    int persistedEpoch() {
        return stateStore.read().epoch();
    }

    List<Applied> applied() {
        return applied;
    }

    List<SnapshotId> loadedSnapshots() {
        return loadedSnapshots;
    }

    InMemorySnapshotStore snapshots() {
        return snapshots;
    }

    /**
     * The state machine snapshots what it applied up to the high watermark (everything committed is applied once
     * the ready work is carried out) and reports it; with {@code deletePrefix} the log prefix goes too. Returns
     * the snapshot, or null when there is nothing new to snapshot.
     */
    SnapshotId takeSnapshot(boolean deletePrefix) {
        if (raft == null) {
            return null;
        }
        processReady();
        long end = raft.highWatermark();
        if (end <= raft.logStartOffset() || raft.latestSnapshot().map(s -> s.endOffset() >= end).orElse(false)) {
            return null;
        }
        SnapshotId id = new SnapshotId(end, raft.log().epochOf(end - 1));
        snapshots.save(id, encode(applied));
        raft.snapshotCreated(id);
        if (deletePrefix) {
            raft.deleteLogPrefix(id);
        }
        processReady();
        return id;
    }

    private void loadSnapshot(SnapshotId id) {
        applied.clear();
        applied.addAll(decode(snapshots.state(id)));
        loadedSnapshots.add(id);
    }

    private static byte[] encode(List<Applied> records) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(records.size());
            for (Applied record : records) {
                out.writeLong(record.offset());
                out.writeInt(record.epoch());
                out.writeInt(record.payload().length);
                out.write(record.payload());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static List<Applied> decode(byte[] state) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(state))) {
            int count = in.readInt();
            List<Applied> records = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                long offset = in.readLong();
                int epoch = in.readInt();
                byte[] payload = new byte[in.readInt()];
                in.readFully(payload);
                records.add(new Applied(offset, epoch, payload));
            }
            return records;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<CommittedBatch> deliveries() {
        return deliveries;
    }

    List<LeaderAndEpoch> leaderChanges() {
        return leaderChanges;
    }

    /**
     * Loses everything not durable: in-flight flushes, the state machine, all timers, log writes not yet applied,
     * all or part of the unflushed log tail, and sometimes part of the chunk last written to an incoming snapshot.
     */
    void crash() {
        if (raft == null) {
            return;
        }
        votersAtCrash = raft.voters();
        raft = null;
        incarnation++;
        unwrittenLogWrites.clear();
        // Usually the unflushed tail is lost; sometimes part of it had reached the disk anyway, which may end inside
        // a batch (the node drops that part when it restarts).
        int unflushed = (int) (log.endOffset() - log.flushedEndOffset());
        log = log.durableCopy(unflushed > 0 && diskRandom.nextBoolean() ? diskRandom.nextInt(unflushed + 1) : 0);
        tearIncomingSnapshots();
        applied.clear();
        leaderChanges.clear();
        announcedEpoch = 0;
        deliveries.clear();
        loadedSnapshots.clear();
    }

    /** A crash in the middle of writing a chunk leaves part of it, sometimes ending in junk the install rejects. */
    private void tearIncomingSnapshots() {
        for (SnapshotId id : new TreeSet<>(snapshots.incoming())) {
            Integer chunkBytes = lastChunkBytes.get(id);
            if (chunkBytes != null && faultRandom.nextBoolean()) {
                long received = snapshots.receivedBytes(id);
                long keep = received - faultRandom.nextInt((int) Math.min(chunkBytes, received) + 1);
                snapshots.tearIncoming(id, keep, faultRandom.nextInt(3) == 0);
                tornSnapshotTransfers++;
            }
        }
        lastChunkBytes.clear();
    }

    void restart() {
        if (raft == null) {
            start();
        }
    }

    private void start() {
        if (log.endOffset() > log.startOffset() && !log.read(log.endOffset() - 1, 1).get(0).endsBatch()) {
            tornBatchRestarts++;
        }
        raft = new RaftNode(config, log, snapshots, stateStore.read(), new Random(seed * 1_000_003L + incarnation),
                bootstrap);
        processReady();
    }

    /** The simulated transport found {@code peerId} down (connection refused). */
    void peerUnreachable(int peerId) {
        if (raft != null) {
            raft.peerUnreachable(peerId);
            processReady();
        }
    }

    void tick() {
        if (raft != null) {
            raft.tick();
            processReady();
        }
    }

    void deliver(RaftMessage message) {
        if (raft != null) {
            raft.handle(message);
            processReady();
        }
    }

    /** Carries out the node's pending work: persist, write, send, flush (asynchronously), apply. */
    void processReady() {
        if (raft != null && !unwrittenLogWrites.isEmpty() && faultRandom.nextInt(4) == 0) {
            writeDeferredLogWrites(); // a storage thread catching up without being asked to flush
        }
        while (raft != null && raft.hasReady()) {
            Ready ready = raft.ready();
            ready.quorumState().ifPresent(stateStore::write);
            for (Ready.SnapshotChunk chunk : ready.snapshotWrites().chunks()) {
                lastChunkBytes.put(chunk.snapshotId(), chunk.data().length);
            }
            ready.snapshotWrites().applyTo(snapshots, raft);
            if (defersLogWrites) {
                if (!ready.logWrites().isEmpty()) {
                    unwrittenLogWrites.add(ready.logWrites());
                }
            } else {
                ready.logWrites().applyTo(log);
            }
            for (RaftMessage message : ready.messages()) {
                if (message instanceof RaftMessage.FetchRequest fetch) {
                    checkAcknowledgementIsDurable(fetch);
                }
                network.send(message);
            }
            if (ready.logWrites().flush()) {
                int flushIncarnation = incarnation;
                scheduler.schedule(1 + diskRandom.nextInt(maxDiskLatency), "flush node " + id(), () -> {
                    if (raft != null && incarnation == flushIncarnation) {
                        writeDeferredLogWrites(); // a flush report covers every write handed out before it
                        log.flush();
                        raft.handleLogFlushed(log.endOffset());
                        processReady();
                    }
                });
            }
            ready.loadSnapshot().ifPresent(this::loadSnapshot);
            for (CommittedBatch batch : ready.committed()) {
                if (batch.epoch() > announcedEpoch && earlyRecords == null) {
                    earlyRecords = "node " + id() + " was handed records of epoch " + batch.epoch() + " from offset "
                            + batch.baseOffset() + " while the last leader change it was told of was of epoch "
                            + announcedEpoch;
                }
                deliveries.add(batch);
                for (int i = 0; i < batch.records().size(); i++) {
                    applied.add(new Applied(batch.baseOffset() + i, batch.epoch(), batch.records().get(i)));
                }
            }
            ready.leaderChange().ifPresent(change -> {
                leaderChanges.add(change);
                announcedEpoch = change.epoch();
            });
        }
    }

    private void writeDeferredLogWrites() {
        for (Ready.LogWrites writes : unwrittenLogWrites) {
            writes.applyTo(log);
        }
        unwrittenLogWrites.clear();
    }

    /** A fetch acknowledges every entry below its offset: they must all survive a crash of this member now. */
    private void checkAcknowledgementIsDurable(RaftMessage.FetchRequest fetch) {
        String problem = notDurable(fetch.fetchOffset(), fetch.lastFetchedEpoch());
        if (problem != null && unsafeAcknowledgement == null) {
            unsafeAcknowledgement = "node " + id() + " acknowledged offset " + fetch.fetchOffset() + " (epoch "
                    + fetch.lastFetchedEpoch() + " before it) to node " + fetch.destination() + ", but " + problem;
        }
    }

    /**
     * The first committed batch handed to this member's state machine since the last call whose epoch is newer than
     * the last leader change it was handed before (in an earlier Ready, since a Ready's leader change comes after
     * its batches), or null.
     */
    String earlyRecordsViolation() {
        String problem = earlyRecords;
        earlyRecords = null;
        return problem;
    }

    /**
     * Why this member acknowledged, or counts as its own durable copy, something a crash now would lose; null when
     * nothing. Checks the fetches it sent since the last call and the log end its node believes durable (what a
     * leader counts for itself).
     */
    String durabilityViolation() {
        String problem = unsafeAcknowledgement;
        unsafeAcknowledgement = null;
        if (problem == null && raft != null) {
            long flushed = raft.flushedEndOffset();
            int epochBefore = flushed > raft.logStartOffset() ? raft.log().epochOf(flushed - 1) : -1;
            String notDurable = notDurable(flushed, epochBefore);
            if (notDurable != null) {
                problem = "node " + id() + " counts its log as durable up to " + flushed + ", but " + notDurable;
            }
        }
        return problem;
    }

    /**
     * Why the entries below {@code endOffset} (the last with {@code epochBefore}, -1 for unknown) are not on this
     * member's disk, flushed or within a stored snapshot; null when they are.
     */
    private String notDurable(long endOffset, int epochBefore) {
        long snapshotEnd = snapshots.latest().map(SnapshotId::endOffset).orElse(0L);
        if (endOffset <= snapshotEnd) {
            return null;
        }
        if (endOffset > log.flushedEndOffset()) {
            return "its disk has flushed only up to " + log.flushedEndOffset() + " (stored snapshot ends at "
                    + snapshotEnd + ")";
        }
        if (epochBefore >= 0 && endOffset - 1 >= log.startOffset() && log.epochOf(endOffset - 1) != epochBefore) {
            return "the flushed entry at " + (endOffset - 1) + " on its disk has epoch " + log.epochOf(endOffset - 1);
        }
        return null;
    }

    @Override
    public String toString() {
        return raft == null ? "SimNode(" + id() + ", down, log end " + log.endOffset() + ")" : raft.toString();
    }
}
