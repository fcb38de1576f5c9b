package io.kraft.raft.sim;

import io.kraft.raft.CommittedBatch;
import io.kraft.raft.InMemoryQuorumStateStore;
import io.kraft.raft.InMemoryRaftLog;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.RaftConfig;
import io.kraft.raft.RaftNode;
import io.kraft.raft.Ready;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One simulated member: a {@link RaftNode} with a simulated disk (an in-memory log whose unflushed tail a crash
 * loses, and a quorum-state store that survives), plus a recording state machine. It carries out each
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
    }

    void restart() {
        if (raft == null) {
            start();
        }
    }

    private void start() {
        raft = new RaftNode(config, log, stateStore.read(), new Random(seed * 1_000_003L + incarnation));
        processReady();
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
            ready.messages().forEach(network::send);
            if (ready.flushLog()) {
                int flushIncarnation = incarnation;
                scheduler.schedule(1 + diskRandom.nextInt(maxDiskLatency), "flush node " + id(), () -> {
                    if (raft != null && incarnation == flushIncarnation) {
                        log.flush();
                        raft.handleLogFlushed(log.endOffset());
                        processReady();
                    }
                });
            }
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
