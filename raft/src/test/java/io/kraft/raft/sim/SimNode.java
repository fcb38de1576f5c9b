package io.kraft.raft.sim;

import io.kraft.raft.CommittedBatch;
import io.kraft.raft.InMemoryQuorumStateStore;
import io.kraft.raft.InMemoryRaftLog;
import io.kraft.raft.InMemorySnapshotStore;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.RaftConfig;
import io.kraft.raft.RaftNode;
import io.kraft.raft.Ready;
import io.kraft.raft.SnapshotId;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One simulated member: a {@link RaftNode} with a simulated disk (an in-memory log whose unflushed tail a crash
 * loses, and a quorum-state store and snapshot store that survive), plus a recording state machine whose
 * snapshot is the list of records it applied. It carries out each
 * {@link Ready} in the documented order; log flushes complete after a random disk latency.
 */
final class SimNode {
    /** A record the state machine applied, for checking against the committed log. */
    record Applied(long offset, int epoch, byte[] payload) {
    }

    private final RaftConfig config;
    private final SimScheduler scheduler;
    private final SimNetwork network;
    private final long seed;
    private final Random diskRandom;
    private final int maxDiskLatency;
    private final InMemoryQuorumStateStore stateStore = new InMemoryQuorumStateStore();
    private final InMemorySnapshotStore snapshots = new InMemorySnapshotStore();
    /** Snapshots this incarnation's state machine loaded, oldest first. */
    private final List<SnapshotId> loadedSnapshots = new ArrayList<>();
    private InMemoryRaftLog log = new InMemoryRaftLog();
    private RaftNode raft;
    private int incarnation;
    private final List<Applied> applied = new ArrayList<>();
    private final List<LeaderAndEpoch> leaderChanges = new ArrayList<>();

    SimNode(RaftConfig config, SimScheduler scheduler, SimNetwork network, long seed, int maxDiskLatency) {
        this.config = config;
        this.scheduler = scheduler;
        this.network = network;
        this.seed = seed;
        this.diskRandom = new Random(seed ^ 0x5DEECE66DL);
        this.maxDiskLatency = maxDiskLatency;
        start();
    }

    int id() {
        return config.nodeId();
    }

    boolean isVoter() {
        return config.isVoter();
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

    InMemoryRaftLog log() {
        return log;
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

    List<LeaderAndEpoch> leaderChanges() {
        return leaderChanges;
    }

    /**
     * Loses everything not durable: in-flight flushes, the state machine, all timers, and all or part of the
     * unflushed log tail.
     */
    void crash() {
        if (raft == null) {
            return;
        }
        raft = null;
        incarnation++;
        // Usually the unflushed tail is lost; sometimes part of it had reached the disk anyway.
        int unflushed = (int) (log.endOffset() - log.flushedEndOffset());
        log = log.durableCopy(unflushed > 0 && diskRandom.nextBoolean() ? diskRandom.nextInt(unflushed + 1) : 0);
        applied.clear();
        leaderChanges.clear();
        loadedSnapshots.clear();
    }

    void restart() {
        if (raft == null) {
            start();
        }
    }

    private void start() {
        raft = new RaftNode(config, log, snapshots, stateStore.read(), new Random(seed * 1_000_003L + incarnation));
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

    void deliver(io.kraft.raft.RaftMessage message) {
        if (raft != null) {
            raft.handle(message);
            processReady();
        }
    }

    /** Carries out the node's pending work: persist, send, flush (asynchronously), apply. */
    void processReady() {
        while (raft != null && raft.hasReady()) {
            Ready ready = raft.ready();
            ready.quorumState().ifPresent(stateStore::write);
            ready.snapshotWrites().applyTo(snapshots, raft);
            ready.logWrites().applyTo(log);
            ready.messages().forEach(network::send);
            if (ready.logWrites().flush()) {
                int flushIncarnation = incarnation;
                scheduler.schedule(1 + diskRandom.nextInt(maxDiskLatency), "flush node " + id(), () -> {
                    if (raft != null && incarnation == flushIncarnation) {
                        log.flush();
                        raft.handleLogFlushed(log.endOffset());
                        processReady();
                    }
                });
            }
            ready.loadSnapshot().ifPresent(this::loadSnapshot);
            for (CommittedBatch batch : ready.committed()) {
                for (int i = 0; i < batch.records().size(); i++) {
                    applied.add(new Applied(batch.baseOffset() + i, batch.epoch(), batch.records().get(i)));
                }
            }
            ready.leaderChange().ifPresent(leaderChanges::add);
        }
    }

    @Override
    public String toString() {
        return raft == null ? "SimNode(" + id() + ", down, log end " + log.endOffset() + ")" : raft.toString();
    }
}
