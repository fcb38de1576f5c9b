package io.kraft.metadata.loader;

import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.MetadataSource;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileSnapshotStore;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata of a broker-only node: the {@link RaftListener} of its Raft observer, which follows the committed
 * metadata log (and snapshots) of the controller quorum and turns it into images for the broker's components, the
 * same way a controller does (one {@link MetadataLoader}): committed batches become {@code MetadataDelta}s applied
 * to the image and the RocksDB state, snapshots from the leader are loaded, and the follower saves snapshots of its
 * own by the same policy so its log prefix can be deleted. It also remembers the Raft leader, which is the active
 * controller (or about to be), as a hint for the broker's controller client.
 *
 * <p>One thread applies everything; {@link #image()} and {@link #leader()} are readable from any thread.
 */
public final class MetadataFollower implements RaftListener, MetadataSource, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataFollower.class);

    private final int nodeId;
    private final MetadataLoader loader;
    private final ScheduledExecutorService thread;
    private volatile LeaderAndEpoch leader = new LeaderAndEpoch(OptionalInt.empty(), 0);
    private RaftDriver driver;
    private boolean closed;

    /**
     * @param stateDirectory where the RocksDB state store lives (wiped and rebuilt from snapshot and log at start)
     * @param snapshots      the observer's Raft snapshot store
     */
    public MetadataFollower(int nodeId, Path stateDirectory, FileSnapshotStore snapshots, SnapshotPolicy snapshotPolicy) {
        this.nodeId = nodeId;
        this.loader = new MetadataLoader("Broker " + nodeId + " metadata follower", stateDirectory, snapshots,
                snapshotPolicy);
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "metadata-follower-" + nodeId);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Connects the Raft driver (constructed with this follower as its listener) that snapshots are reported to, and
     * starts the time-based snapshot check. Call before {@link RaftDriver#start()}.
     */
    public void start(RaftDriver raftDriver) {
        this.driver = Objects.requireNonNull(raftDriver, "raftDriver");
        long checkMs = loader.snapshotCheckIntervalMs();
        thread.scheduleWithFixedDelay(() -> run(this::maybeSnapshot), checkMs, checkMs, TimeUnit.MILLISECONDS);
    }

    /** The last committed image this node has applied. */
    @Override
    public MetadataImage image() {
        return loader.image();
    }

    /** Adds a publisher; register before the log is replayed so the first delta shows the whole state. */
    @Override
    public void register(MetadataPublisher publisher) {
        loader.register(publisher);
    }

    /** The Raft leader this observer last heard of: the active controller, or the one about to be. */
    public LeaderAndEpoch leader() {
        return leader;
    }

    /** The id of {@link #leader()}, if known (the broker's controller client asks this when voters give no hint). */
    public OptionalInt leaderId() {
        return leader.leaderId();
    }

    // ---- Raft listener (called on the Raft thread; the work moves onto this follower's thread) --------------

    @Override
    public void handleCommit(CommittedBatch batch) {
        run(() -> {
            loader.applyCommitted(batch);
            maybeSnapshot();
        });
    }

    @Override
    public void handleLoadSnapshot(SnapshotId snapshotId) {
        run(() -> loader.loadSnapshot(snapshotId));
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leaderAndEpoch) {
        leader = leaderAndEpoch;
        LOG.info("Broker {} follows metadata leader {} in epoch {}", nodeId,
                leaderAndEpoch.leaderId().isPresent() ? leaderAndEpoch.leaderId().getAsInt() : "(none)",
                leaderAndEpoch.epoch());
    }

    private void maybeSnapshot() {
        if (driver != null) {
            loader.maybeSnapshot(System.currentTimeMillis()).ifPresent(driver::snapshotCreated);
        }
    }

    private void run(Runnable work) {
        try {
            thread.execute(() -> {
                if (closed) {
                    return;
                }
                try {
                    work.run();
                } catch (RuntimeException e) {
                    LOG.error("Broker {} metadata follower failed", nodeId, e);
                }
            });
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    /** Stops applying and closes the state store. Close the Raft driver first. */
    @Override
    public void close() {
        try {
            thread.submit(() -> {
                closed = true;
                loader.close();
            }).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("Broker {} metadata follower did not shut down cleanly", nodeId, e);
        }
        thread.shutdownNow();
    }
}
