package io.kraft.raft;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link RaftNode} on a single thread: ticks it every {@code tickMs}, feeds it inbound messages and
 * appends, and carries out each {@link Ready} in order (persist quorum state, write and install snapshot chunks,
 * write the log, send, flush the log synchronously and report the flush, then call the {@link RaftListener}: snapshot
 * load, committed batches, leader change, leader ready, in the order its Javadoc explains). All other threads only
 * enqueue work. Inbound messages wait at most {@link #MAX_QUEUED_MESSAGES} at a time; more are dropped, as a lossy
 * network would (every Raft request is retried on its own timer), so neither a flood of RPCs nor a raft thread
 * held up by a slow disk grows the queue without bound. Appends and calls are not dropped: their callers wait for
 * the answer, which bounds them (the controller's appends by its event loop, one request at a time).
 *
 * <p>An error that escapes the thread's work (a log write or fsync that failed, a bug in the core or the listener)
 * stops the thread and goes to the {@link FatalErrorHandler}: the node's state on disk and in memory may disagree, and
 * running on would leave a member that looks alive but never commits again.
 */
public final class RaftDriver implements RaftClient, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RaftDriver.class);
    /** How often a time-based retention limit is re-checked against the latest snapshot. */
    private static final long RETENTION_CHECK_INTERVAL_MS = 60_000;
    /** Inbound messages waiting for the raft thread at most: far more than a quorum and its observers send. */
    static final int MAX_QUEUED_MESSAGES = 10_000;
    private static final long DROP_LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final RaftNode node;
    private final RaftLog log;
    private final SnapshotStore snapshots;
    private final LogRetentionPolicy retention;
    private final QuorumStateStore stateStore;
    private final RaftTransport transport;
    private final RaftListener listener;
    private final FatalErrorHandler fatalErrorHandler;
    private final long tickMs;
    private final ScheduledExecutorService thread;
    private final ConcurrentLinkedQueue<Runnable> inbox = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** Set on the raft thread once a fatal error stopped it: nothing queued behind the error runs. */
    private volatile boolean stopped;
    /** Whether the listener has been handed every record known committed; set after each step's hand-over. */
    private volatile boolean handedOverAllCommitted = true;
    private final RaftStats stats = new RaftStats(System::nanoTime);
    private final AtomicInteger queuedMessages = new AtomicInteger();
    private final AtomicLong droppedMessages = new AtomicLong();
    private final AtomicLong lastDropLogNanos = new AtomicLong(System.nanoTime() - DROP_LOG_INTERVAL_NANOS);

    /** The voter set last handed to the transport; only the raft thread touches it. */
    private VoterSet announcedVoters;

    /**
     * A driver whose state machine snapshots into {@code snapshots}; {@code retention} decides when the log prefix
     * a new snapshot covers is deleted. A fatal error only stops the thread and is logged: for tests and tools; a node
     * passes a handler that stops the process.
     */
    public RaftDriver(RaftConfig config, long tickMs, RaftLog log, SnapshotStore snapshots,
                      LogRetentionPolicy retention, QuorumStateStore stateStore, RaftTransport transport,
                      RaftListener listener, long randomSeed) {
        this(config, tickMs, log, snapshots, retention, stateStore, transport, listener, randomSeed,
                (message, cause) -> LOG.error("{}", message, cause));
    }

    /** As the other constructor, with the handler that hears an error that stopped the Raft thread. */
    public RaftDriver(RaftConfig config, long tickMs, RaftLog log, SnapshotStore snapshots,
                      LogRetentionPolicy retention, QuorumStateStore stateStore, RaftTransport transport,
                      RaftListener listener, long randomSeed, FatalErrorHandler fatalErrorHandler) {
        this(config, tickMs, log, snapshots, retention, stateStore, transport, listener, randomSeed, fatalErrorHandler,
                VoterBootstrap.fromStatic(config));
    }

    /** As above, with the voter set starting from {@code bootstrap} (KIP-853's bootstrap checkpoint, or static). */
    public RaftDriver(RaftConfig config, long tickMs, RaftLog log, SnapshotStore snapshots,
                      LogRetentionPolicy retention, QuorumStateStore stateStore, RaftTransport transport,
                      RaftListener listener, long randomSeed, FatalErrorHandler fatalErrorHandler,
                      VoterBootstrap bootstrap) {
        this.fatalErrorHandler = Objects.requireNonNull(fatalErrorHandler, "fatalErrorHandler");
        this.log = Objects.requireNonNull(log, "log");
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.retention = Objects.requireNonNull(retention, "retention");
        this.stateStore = Objects.requireNonNull(stateStore, "stateStore");
        this.transport = Objects.requireNonNull(transport, "transport");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.tickMs = tickMs;
        this.node = new RaftNode(config, log, snapshots, stateStore.read(), new Random(randomSeed), bootstrap);
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "raft-node-" + config.nodeId());
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts ticking and accepting messages, and answers describe-quorum requests the transport receives. */
    public void start() {
        node.latestSnapshot().ifPresent(loaded -> stats.snapshotTaken());
        transport.serveDescribeQuorum(this::describe);
        transport.start(this::deliver, peerId -> enqueue(() -> node.peerUnreachable(peerId)));
        run(() -> step(() -> { }));
        thread.scheduleAtFixedRate(() -> step(node::tick), tickMs, tickMs, TimeUnit.MILLISECONDS);
        thread.scheduleAtFixedRate(() -> step(this::applyRetention), RETENTION_CHECK_INTERVAL_MS,
                RETENTION_CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** Queues an inbound message for the raft thread, or drops it while {@link #MAX_QUEUED_MESSAGES} wait. */
    public void deliver(RaftMessage message) {
        if (queuedMessages.incrementAndGet() > MAX_QUEUED_MESSAGES) {
            queuedMessages.decrementAndGet();
            dropped(message);
            return;
        }
        enqueue(() -> {
            queuedMessages.decrementAndGet();
            node.handle(message);
        });
    }

    /** Counts a dropped message; one line per ten seconds at most says how many. */
    private void dropped(RaftMessage message) {
        long count = droppedMessages.incrementAndGet();
        long now = System.nanoTime();
        long last = lastDropLogNanos.get();
        if (now - last >= DROP_LOG_INTERVAL_NANOS && lastDropLogNanos.compareAndSet(last, now)) {
            LOG.warn("raft node {} dropped inbound messages: {} wait for the raft thread already, {} dropped so far,"
                    + " the last a {} from node {}", node.nodeId(), MAX_QUEUED_MESSAGES, count,
                    message.getClass().getSimpleName(), message.source());
        }
    }

    /** Inbound messages waiting for the raft thread now. */
    int queuedMessages() {
        return queuedMessages.get();
    }

    /** Inbound messages dropped since the start because too many were waiting. */
    long droppedMessages() {
        return droppedMessages.get();
    }

    /** Appends on the leader of {@code epoch}; see {@link RaftNode#append}. Completes on the raft thread. */
    @Override
    public CompletableFuture<Long> append(int epoch, List<byte[]> records) {
        return appendOnRaftThread(() -> node.role() == Role.LEADER && node.epoch() == epoch, records);
    }

    private CompletableFuture<Long> appendOnRaftThread(BooleanSupplier leads, List<byte[]> records) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        long appendedAtNanos = System.nanoTime();
        boolean queued = enqueue(() -> {
            if (!leads.getAsBoolean()) {
                result.completeExceptionally(new NotLeaderException(node.nodeId(), node.epoch(), node.leaderId()));
                return;
            }
            node.append(records).whenComplete((offset, error) -> {
                if (error != null) {
                    result.completeExceptionally(error);
                } else {
                    stats.recordCommit(System.nanoTime() - appendedAtNanos);
                    result.complete(offset);
                }
            });
        });
        if (!queued) {
            result.completeExceptionally(new IllegalStateException("raft node " + node.nodeId() + " is stopped"));
        }
        return result;
    }

    /**
     * The state machine stored snapshot {@code id} in the snapshot store (from any thread); the node records it and,
     * if the retention policy says so, deletes the log prefix it covers (the policy is asked again every minute,
     * for age limits). Completes once done on the raft thread.
     */
    @Override
    public CompletableFuture<Void> snapshotCreated(SnapshotId id) {
        return call(() -> {
            node.snapshotCreated(id);
            stats.snapshotTaken();
            applyRetention();
            return null;
        });
    }

    /** Deletes the log prefix the latest snapshot covers once the retention policy allows it (size or age). */
    private void applyRetention() {
        node.latestSnapshot().filter(snapshot -> snapshot.endOffset() > node.logStartOffset())
                .filter(retention::deletePrefixUpTo).ifPresent(node::deleteLogPrefix);
    }

    /** Asks the leader of {@code epoch} to step down gracefully (EndQuorumEpoch); a no-op elsewhere. */
    @Override
    public CompletableFuture<Void> resign(int epoch) {
        return call(() -> {
            if (node.role() == Role.LEADER && node.epoch() == epoch) {
                node.resign();
            }
            return null;
        });
    }

    /**
     * KIP-853's AddRaftVoter on this node: completes with the voters record's offset once the new set commits, or
     * fails as {@link RaftNode#addVoter} says (not the leader, not caught up, a change pending, static voters).
     */
    public CompletableFuture<Long> addVoter(Voter voter) {
        return this.<CompletableFuture<Long>>call(() -> node.addVoter(voter)).thenCompose(change -> change);
    }

    /** KIP-853's RemoveRaftVoter on this node; see {@link RaftNode#removeVoter}. */
    public CompletableFuture<Long> removeVoter(int voterId, java.util.UUID directoryId) {
        return this.<CompletableFuture<Long>>call(() -> node.removeVoter(voterId, directoryId))
                .thenCompose(change -> change);
    }

    /** KIP-853's UpdateRaftVoter on this node (a voter's new endpoint); see {@link RaftNode#updateVoter}. */
    public CompletableFuture<Long> updateVoter(Voter voter) {
        return this.<CompletableFuture<Long>>call(() -> node.updateVoter(voter)).thenCompose(change -> change);
    }

    /** The voter set in force on this node (the latest its log states). */
    public CompletableFuture<VoterSet> voters() {
        return call(node::voters);
    }

    @Override
    public boolean handedOverAllCommitted() {
        return handedOverAllCommitted;
    }

    /** Leader, epoch, high watermark and (on the leader) every member's acknowledged position. */
    @Override
    public CompletableFuture<QuorumDescription> describe() {
        return call(() -> {
            List<QuorumDescription.Member> members = new ArrayList<>();
            long nowMs = System.currentTimeMillis();
            VoterSet voters = node.voters();
            if (node.role() == Role.LEADER && voters.contains(node.nodeId())) {
                members.add(new QuorumDescription.Member(node.nodeId(), true, node.flushedEndOffset(), nowMs, nowMs,
                        directoryOf(voters, node.nodeId())));
            }
            for (ReplicaProgress p : node.replicaProgress()) {
                members.add(new QuorumDescription.Member(p.replicaId(), p.voter(), p.endOffset(),
                        tickToWallClockMs(p.lastFetchTick(), nowMs), tickToWallClockMs(p.lastCaughtUpTick(), nowMs),
                        directoryOf(voters, p.replicaId())));
            }
            return new QuorumDescription(node.leaderId(), node.epoch(), node.highWatermark(), members);
        });
    }

    private static java.util.UUID directoryOf(VoterSet voters, int id) {
        return voters.voter(id).map(Voter::directoryId).orElse(Voter.UNKNOWN_DIRECTORY);
    }

    /** Ticks back to wall-clock time (-1 stays -1): accurate to a tick, which is all describe-quorum needs. */
    private long tickToWallClockMs(long tick, long nowMs) {
        return tick < 0 ? -1 : nowMs - (node.currentTick() - tick) * tickMs;
    }

    @Override
    public int nodeId() {
        return node.nodeId();
    }

    /** The node's figures for its metrics (any thread). */
    public RaftStats stats() {
        return stats;
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
        transport.close();
    }

    /**
     * Runs {@code work} on the raft thread, carries out what it made ready, then answers. The work's own refusals (a
     * bad argument) fail the future; a failed disk write is fatal like anywhere else on the thread.
     */
    private <T> CompletableFuture<T> call(java.util.function.Supplier<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        boolean queued = run(() -> {
            List<T> answer = new ArrayList<>(1);
            step(() -> {
                try {
                    answer.add(work.get());
                } catch (UncheckedIOException e) {
                    result.completeExceptionally(e);
                    throw e;
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
            if (stopped) {
                result.completeExceptionally(new IllegalStateException("raft node " + node.nodeId() + " is stopped"));
            } else if (!answer.isEmpty()) {
                result.complete(answer.get(0));
            }
        });
        if (!queued) {
            result.completeExceptionally(new IllegalStateException("raft node " + node.nodeId() + " is stopped"));
        }
        return result;
    }

    /**
     * Queues an event; the raft thread handles every queued event before it carries out one {@link Ready}, so a
     * burst of appends or messages shares one log flush (group commit).
     */
    private boolean enqueue(Runnable event) {
        inbox.add(event);
        if (drainScheduled.compareAndSet(false, true)) {
            return run(this::drainInbox);
        }
        return !thread.isShutdown();
    }

    private void drainInbox() {
        drainScheduled.set(false);
        step(() -> {
            Runnable event;
            while ((event = inbox.poll()) != null) {
                event.run();
            }
        });
    }

    private boolean run(Runnable work) {
        try {
            thread.execute(work);
            return true;
        } catch (RejectedExecutionException stopped) {
            return false;
        }
    }

    private void step(Runnable event) {
        if (stopped) {
            return;
        }
        try {
            event.run();
            processReady();
            handedOverAllCommitted = node.highWatermark() >= node.leaderHighWatermark();
            stats.logEnd(node.log().endOffset(), node.log().lastEpoch());
            if (node.dynamicVoters() && !node.voters().equals(announcedVoters)) {
                announcedVoters = node.voters();
                transport.votersChanged(announcedVoters);
            }
        } catch (Throwable e) {
            // A failed disk write must not be papered over: stop this node rather than run on with unknown state.
            stopped = true;
            thread.shutdownNow();
            fatalErrorHandler.handleFatalError("Raft node " + node.nodeId() + " stopped: " + oneLine(e), e);
        }
    }

    /** One line for a fatal error: its message, and the cause's when it adds something (an I/O error's reason). */
    private static String oneLine(Throwable e) {
        String text = e.getMessage() != null ? e.getMessage() : e.toString();
        Throwable cause = e.getCause();
        if (cause != null && cause.getMessage() != null && !text.contains(cause.getMessage())) {
            text += ": " + cause.getMessage();
        }
        return text;
    }

    private void processReady() {
        while (node.hasReady()) {
            Ready ready = node.ready();
            ready.quorumState().ifPresent(stateStore::write);
            writeSnapshots(ready.snapshotWrites());
            ready.logWrites().applyTo(log);
            for (RaftMessage message : ready.messages()) {
                transport.send(message);
            }
            if (ready.logWrites().flush()) {
                log.flush();
                node.handleLogFlushed(log.endOffset());
            }
            ready.loadSnapshot().ifPresent(listener::handleLoadSnapshot);
            for (CommittedBatch batch : ready.committed()) {
                listener.handleCommit(batch);
            }
            ready.leaderChange().ifPresent(change -> {
                LOG.info("raft node {} in epoch {}: leader is {}", node.nodeId(), change.epoch(),
                        change.leaderId().isPresent() ? change.leaderId().getAsInt() : "unknown (election running)");
                listener.handleLeaderChange(change);
            });
            ready.leaderReady().ifPresent(listener::handleLeaderReady);
        }
    }

    /** Appends fetched chunks to their incoming snapshots, installs a complete one and tells the node how it went. */
    private void writeSnapshots(Ready.SnapshotWrites writes) {
        for (Ready.SnapshotChunk chunk : writes.chunks()) {
            snapshots.receive(chunk.snapshotId(), chunk.position(), chunk.data(), chunk.crc32c());
        }
        if (writes.install().isEmpty()) {
            return;
        }
        SnapshotId id = writes.install().get();
        try {
            snapshots.install(id);
        } catch (CorruptSnapshotException e) {
            LOG.warn("raft node {} fetches snapshot {} again: {}", node.nodeId(), id, e.getMessage());
            node.handleSnapshotRejected(id, e.getMessage());
            return;
        }
        LOG.info("raft node {} installed snapshot {} from its leader; its log now starts at {}", node.nodeId(), id,
                id.endOffset());
        node.handleSnapshotInstalled(id);
    }
}
