package io.kraft.metadata.loader;

import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.image.MetadataChangeListener;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.MetadataSource;
import io.kraft.metadata.loop.EventLoop;
import io.kraft.metadata.loop.SingleThreadEventLoop;
import io.kraft.metadata.loop.Time;
import io.kraft.metadata.store.RocksDbMetadataStorage;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.RaftClient;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileSnapshotStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata of a broker-only node: the {@link RaftListener} of its Raft observer, which follows the committed
 * metadata log (and snapshots) of the controller quorum and turns it into images for the broker's components, the
 * same way a controller does (one {@link MetadataLoader}): committed batches become {@code MetadataDelta}s applied
 * to the image and the stored state, snapshots from the leader are loaded, and the follower saves snapshots of its
 * own by the same policy so its log prefix can be deleted. Images are published on a publisher loop of their own. It
 * also remembers the Raft leader, which is the active controller (or about to be), as a hint for the broker's
 * controller client.
 *
 * <p>One loop applies everything; {@link #image()} and {@link #leader()} are readable from any thread. A committed
 * batch that does not apply is a fault: the metadata would silently stop following the log.
 */
public final class MetadataFollower implements RaftListener, MetadataSource, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataFollower.class);

    private final int nodeId;
    private final Time time;
    private final EventLoop loop;
    private final EventLoop publisherLoop;
    private final FaultHandler faultHandler;
    private final MetadataLoader loader;
    /** Committed batches waiting for the loop (filled on Raft's thread). */
    private final CommittedRuns runs = new CommittedRuns();
    private volatile LeaderAndEpoch leader = new LeaderAndEpoch(OptionalInt.empty(), 0);
    private RaftClient raft;
    private boolean closed;

    /**
     * @param storage       where the committed state and the snapshots are kept
     * @param loop          the loop that applies the log
     * @param publisherLoop the loop the broker's publishers run on
     */
    public MetadataFollower(int nodeId, MetadataStorage storage, SnapshotPolicy snapshotPolicy, Time time,
                            EventLoop loop, EventLoop publisherLoop, FaultHandler faultHandler) {
        this.nodeId = nodeId;
        this.time = Objects.requireNonNull(time, "time");
        this.loop = Objects.requireNonNull(loop, "loop");
        this.publisherLoop = Objects.requireNonNull(publisherLoop, "publisherLoop");
        this.faultHandler = Objects.requireNonNull(faultHandler, "faultHandler");
        String owner = "Broker " + nodeId + " metadata follower";
        this.loader = new MetadataLoader(owner, storage, snapshotPolicy, time,
                new PublisherQueue(owner, publisherLoop, faultHandler));
    }

    /**
     * A follower on threads of its own ({@code metadata-follower-<id>}, {@code metadata-publisher-<id>}) with its
     * state in RocksDB.
     *
     * @param stateDirectory where the RocksDB state store lives (wiped and rebuilt from snapshot and log at start)
     * @param snapshots      the observer's Raft snapshot store
     */
    public static MetadataFollower open(int nodeId, Path stateDirectory, FileSnapshotStore snapshots,
                                        SnapshotPolicy snapshotPolicy, FaultHandler faultHandler) {
        return new MetadataFollower(nodeId, new RocksDbMetadataStorage(stateDirectory, snapshots), snapshotPolicy,
                Time.SYSTEM, new SingleThreadEventLoop("metadata-follower-" + nodeId, faultHandler),
                new SingleThreadEventLoop("metadata-publisher-" + nodeId, faultHandler), faultHandler);
    }

    /**
     * Connects the Raft client (whose listener this follower is) that snapshots are reported to, and starts the
     * time-based snapshot check. Call before Raft starts.
     */
    public void start(RaftClient raftClient) {
        this.raft = Objects.requireNonNull(raftClient, "raftClient");
        scheduleSnapshotCheck();
    }

    private void scheduleSnapshotCheck() {
        loop.schedule("snapshot check", time.monotonicMs() + loader.snapshotCheckIntervalMs(), () -> run(() -> {
            maybeSnapshot();
            scheduleSnapshotCheck();
        }));
    }

    /** The last committed image this node has applied. */
    @Override
    public MetadataImage image() {
        return loader.image();
    }

    /** The last image the broker's publishers have taken in. */
    public MetadataImage publishedImage() {
        return loader.publishedImage();
    }

    /** Adds a publisher; register before the log is replayed so the first delta shows the whole state. */
    @Override
    public void register(MetadataPublisher publisher) {
        loader.register(publisher);
    }

    /** Where this follower's time went until it first caught up. */
    CatchUpTimeline catchUp() {
        return loader.catchUp();
    }

    /** The Raft leader this observer last heard of: the active controller, or the one about to be. */
    public LeaderAndEpoch leader() {
        return leader;
    }

    /** The id of {@link #leader()}, if known (the broker's controller client asks this when voters give no hint). */
    public OptionalInt leaderId() {
        return leader.leaderId();
    }

    // ---- Raft listener (called on the Raft thread; the work moves onto this follower's loop) ----------------

    @Override
    public void handleCommit(CommittedBatch batch) {
        // Batches committed while the loop is busy join the waiting run: a broker far behind applies few deltas.
        CommittedRuns.Run waiting = runs.add(batch);
        if (waiting == null) {
            return;
        }
        loop.execute("commit " + batch.baseOffset(), () -> run(() -> {
            List<CommittedBatch> batches = runs.take(waiting);
            try {
                loader.applyCommitted(batches, MetadataChangeListener.NONE);
            } catch (RuntimeException e) {
                closed = true;
                faultHandler.handleFault("Broker " + nodeId + " could not apply the committed metadata batches at "
                        + batch.baseOffset() + ".." + batches.get(batches.size() - 1).lastOffset() + ": " + e.getMessage(), e);
                return;
            }
            // Caught up once nothing waits for the loop and Raft has fetched all the leader reported committed.
            if (runs.idle() && (raft == null || raft.handedOverAllCommitted())) {
                loader.catchUp().caughtUp(loader.image().offset());
            }
            maybeSnapshot();
        }));
    }

    @Override
    public void handleLoadSnapshot(SnapshotId snapshotId) {
        runs.cut();
        long handedOver = System.nanoTime();
        loop.execute("load snapshot " + snapshotId, () -> run(() -> {
            try {
                loader.catchUp().snapshotHandedOver(handedOver);
                loader.loadSnapshot(snapshotId);
            } catch (RuntimeException e) {
                closed = true;
                faultHandler.handleFault("Broker " + nodeId + " could not load metadata snapshot " + snapshotId + ": "
                        + e.getMessage(), e);
            }
        }));
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leaderAndEpoch) {
        runs.cut();
        leader = leaderAndEpoch;
        if (leaderAndEpoch.leaderId().isPresent()) {
            loop.execute("leader known", () -> loader.catchUp().leaderKnown());
        }
        LOG.info("Broker {} follows metadata leader {} in epoch {}", nodeId,
                leaderAndEpoch.leaderId().isPresent() ? leaderAndEpoch.leaderId().getAsInt() : "(none)",
                leaderAndEpoch.epoch());
    }

    private void maybeSnapshot() {
        if (raft != null) {
            loader.snapshotIfDue(raft);
        }
    }

    private void run(Runnable work) {
        if (!closed) {
            work.run();
        }
    }

    /** Stops applying and closes the state store, then lets the publishers finish. Close the Raft client first. */
    @Override
    public void close() {
        loop.execute("close", () -> {
            closed = true;
            loader.close();
        });
        loop.close();
        publisherLoop.close();
    }
}
