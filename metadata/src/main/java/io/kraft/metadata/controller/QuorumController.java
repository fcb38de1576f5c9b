package io.kraft.metadata.controller;

import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.MetadataSource;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.loader.MetadataLoader;
import io.kraft.metadata.loader.MetadataLoader.AppliedBatch;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.NotLeaderException;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.storage.errors.Errors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata controller of one quorum member: a single event-loop thread that owns the committed image and the
 * RocksDB state store (through a {@link MetadataLoader}, as a broker's observer does) and, while this member is the
 * active controller, the {@link ControlManagers}.
 *
 * <p>As a {@link RaftListener} it applies every committed batch to the image and the store and publishes the
 * result. On the active controller a request runs on the loop: the managers generate records, replay them at
 * once (so the next request sees them), Raft appends them, and the request's future completes when they commit.
 * A request's answer waits until the committed image includes its records, so a caller reads its own write in
 * {@link #image()}. Every request fails with {@link Errors#NOT_CONTROLLER} on a member that is not the active controller, and
 * pending ones fail with it when leadership is lost; the managers are then rebuilt from the committed image.
 *
 * <p>A new leader serves only once everything earlier leaders appended has committed (its high watermark has
 * reached its log end at election), so its managers start from a complete image. Start with {@link #start}.
 */
public final class QuorumController implements Controller, MetadataSource, RaftListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QuorumController.class);
    /** How often a new leader checks whether the earlier epochs' records have committed. */
    private static final long CLAIM_POLL_MS = 10;

    private final int nodeId;
    private final ControllerSettings settings;
    private final TopicConfigResolver topicConfigs;
    private final Map<String, SupportedRange> supportedFeatures;
    private final Random random;
    private final MetadataLoader loader;
    private final ScheduledExecutorService loop;

    private RaftDriver driver;
    private volatile LeaderAndEpoch leader = new LeaderAndEpoch(java.util.OptionalInt.empty(), 0);
    /** Present only while this member is the active controller. */
    private ControlManagers managers;
    /** The epoch this member leads, or -1. Set at election; {@link #managers} appears once it may serve. */
    private int leaderEpoch = -1;
    /** The offset the next appended record will get (exact: only the leader appends in its epoch). */
    private long nextWriteOffset;
    private final List<CompletableFuture<?>> pending = new ArrayList<>();
    /** Answers to committed requests, released once the image reaches their last offset (read-your-writes). */
    private final TreeMap<Long, List<Runnable>> awaitingImage = new TreeMap<>();
    private ScheduledFuture<?> fencingTimer;
    private long fencingDeadlineMs = Long.MAX_VALUE;
    private boolean closed;

    /**
     * @param stateDirectory where the RocksDB state store lives; it is rebuilt from snapshot and log at every start
     * @param snapshots      the Raft driver's snapshot store, which this controller writes checkpoints into
     */
    public QuorumController(int nodeId, ControllerSettings settings, TopicConfigResolver topicConfigs,
                            Map<String, SupportedRange> supportedFeatures, Path stateDirectory,
                            FileSnapshotStore snapshots, SnapshotPolicy snapshotPolicy, long randomSeed) {
        this.nodeId = nodeId;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.topicConfigs = Objects.requireNonNull(topicConfigs, "topicConfigs");
        this.supportedFeatures = Map.copyOf(supportedFeatures);
        this.random = new Random(randomSeed);
        this.loader = new MetadataLoader("Controller " + nodeId, stateDirectory, snapshots, snapshotPolicy);
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "quorum-controller-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Connects the Raft driver this controller listens to (constructed with this controller as its listener)
     * and starts the time-based snapshot check. Call before {@link RaftDriver#start()}.
     */
    public void start(RaftDriver raftDriver) {
        this.driver = Objects.requireNonNull(raftDriver, "raftDriver");
        long checkMs = loader.snapshotCheckIntervalMs();
        loop.scheduleWithFixedDelay(() -> runEvent(this::maybeSnapshot), checkMs, checkMs, TimeUnit.MILLISECONDS);
    }

    /** Adds a publisher; it receives every image committed from now on (on the controller thread). */
    @Override
    public void register(MetadataPublisher publisher) {
        loader.register(publisher);
    }

    public int nodeId() {
        return nodeId;
    }

    /** The last committed image (readable from any thread). */
    @Override
    public MetadataImage image() {
        return loader.image();
    }

    /** The leader this member last heard of (readable from any thread). */
    public LeaderAndEpoch leader() {
        return leader;
    }

    // ---- requests -------------------------------------------------------------------------------------------

    /** Registers a broker incarnation; answers its new broker epoch. */
    @Override
    public CompletableFuture<Long> registerBroker(BrokerRegistrationRequest request) {
        return submit("registerBroker", m -> m.registerBroker(request, System.currentTimeMillis()));
    }

    @Override
    public CompletableFuture<BrokerHeartbeatReply> heartbeat(BrokerHeartbeatRequest request) {
        return submit("heartbeat", m -> m.heartbeat(request, System.currentTimeMillis()));
    }

    /** Creates one topic; answers its id and partitions. */
    @Override
    public CompletableFuture<CreateTopicResult> createTopic(CreateTopicRequest request) {
        return submit("createTopic", m -> m.createTopic(request));
    }

    @Override
    public CompletableFuture<CreateTopicResult> validateCreateTopic(CreateTopicRequest request) {
        return submitDryRun("validateCreateTopic", m -> m.createTopic(request));
    }

    /** Creates each topic independently, in order; one failing does not stop the others. */
    @Override
    public List<CompletableFuture<CreateTopicResult>> createTopics(List<CreateTopicRequest> requests) {
        return requests.stream().map(this::createTopic).toList();
    }

    /** Deletes one topic; answers its id. */
    @Override
    public CompletableFuture<UUID> deleteTopic(String topicName) {
        return submit("deleteTopic", m -> m.deleteTopic(topicName));
    }

    @Override
    public List<CompletableFuture<UUID>> deleteTopics(List<String> topicNames) {
        return topicNames.stream().map(this::deleteTopic).toList();
    }

    /** Grows a topic to {@code totalCount} partitions, with explicit replicas for the new ones or none. */
    @Override
    public CompletableFuture<Void> createPartitions(String topicName, int totalCount, List<List<Integer>> newAssignments) {
        return submit("createPartitions", m -> m.createPartitions(topicName, totalCount, newAssignments));
    }

    @Override
    public CompletableFuture<Void> validateCreatePartitions(String topicName, int totalCount,
                                                            List<List<Integer>> newAssignments) {
        return submitDryRun("validateCreatePartitions", m -> m.createPartitions(topicName, totalCount, newAssignments));
    }

    @Override
    public CompletableFuture<PartitionRegistration> alterPartition(AlterPartitionRequest request) {
        return submit("alterPartition", m -> m.alterPartition(request));
    }

    /** Sets (present value) or deletes (empty) config keys of one resource. */
    @Override
    public CompletableFuture<Void> incrementalAlterConfigs(ConfigResource resource, Map<String, Optional<String>> changes) {
        return submit("incrementalAlterConfigs", m -> m.incrementalAlterConfigs(resource, changes));
    }

    @Override
    public CompletableFuture<ProducerIdBlock> allocateProducerIds(int brokerId, long brokerEpoch) {
        return submit("allocateProducerIds", m -> m.allocateProducerIds(brokerId, brokerEpoch));
    }

    /**
     * A broker's control-plane connection closed: unless it reconnects within the connection-loss grace, the
     * fencing timer fences it without waiting for its session to expire.
     */
    public void connectionClosed(int brokerId) {
        runEvent(() -> {
            if (managers != null) {
                managers.connectionClosed(brokerId, System.currentTimeMillis());
                rescheduleFencing();
            }
        });
    }

    /**
     * Runs a request's record generation on the active controller and answers its response or error, dropping
     * the records: the managers only generate records, so nothing changes (validate_only requests).
     */
    private <T> CompletableFuture<T> submitDryRun(String name, Function<ControlManagers, ControllerResult<T>> operation) {
        return submit(name, m -> {
            ControllerResult<T> result = operation.apply(m);
            return result.isSuccess() ? ControllerResult.of(List.of(), result.response()) : result;
        });
    }

    private <T> CompletableFuture<T> submit(String name, Function<ControlManagers, ControllerResult<T>> operation) {
        CompletableFuture<T> future = new CompletableFuture<>();
        boolean queued = runEvent(() -> {
            if (managers == null) {
                future.completeExceptionally(notController());
                return;
            }
            ControllerResult<T> result;
            try {
                result = operation.apply(managers);
            } catch (RuntimeException e) {
                LOG.error("Controller {} failed to handle {}", nodeId, name, e);
                future.completeExceptionally(new ControllerException(Errors.UNKNOWN_SERVER_ERROR,
                        name + " failed: " + e.getMessage()));
                return;
            }
            if (!result.isSuccess()) {
                future.completeExceptionally(new ControllerException(result.error()));
            } else if (result.records().isEmpty()) {
                future.complete(result.response());
            } else {
                appendAndAnswer(result, future);
            }
            rescheduleFencing();
        });
        if (!queued) {
            future.completeExceptionally(new ControllerException(Errors.NOT_CONTROLLER,
                    "Controller " + nodeId + " is shut down"));
        }
        return future;
    }

    private <T> void appendAndAnswer(ControllerResult<T> result, CompletableFuture<T> future) {
        List<MetadataRecord> records = result.records();
        long firstOffset = nextWriteOffset;
        managers.replayBatch(records, firstOffset, leaderEpoch);
        nextWriteOffset += records.size();
        pending.add(future);
        int epoch = leaderEpoch;
        List<byte[]> serialized = records.stream().map(MetadataRecord::toByteArray).toList();
        driver.append(epoch, serialized).whenComplete((lastOffset, error) -> runEvent(() -> {
            pending.remove(future);
            if (error == null) {
                if (lastOffset != firstOffset + records.size() - 1) {
                    LOG.warn("Controller {} expected its records at {}..{} but they committed ending at {}", nodeId,
                            firstOffset, firstOffset + records.size() - 1, lastOffset);
                }
                whenImageReaches(lastOffset, () -> future.complete(result.response()));
            } else {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                if (!(cause instanceof NotLeaderException)) {
                    LOG.warn("Controller {} could not append in epoch {}", nodeId, epoch, cause);
                }
                future.completeExceptionally(notController());
                // The managers hold records that will never commit; only a rebuild removes them.
                if (managers != null && leaderEpoch == epoch) {
                    resign();
                }
            }
        }));
    }

    private void whenImageReaches(long offset, Runnable answer) {
        if (loader.image().offset() >= offset) {
            answer.run();
        } else {
            awaitingImage.computeIfAbsent(offset, o -> new ArrayList<>()).add(answer);
        }
    }

    private void releaseAnswers() {
        Map<Long, List<Runnable>> due = awaitingImage.headMap(loader.image().offset(), true);
        List<Runnable> answers = due.values().stream().flatMap(List::stream).toList();
        due.clear();
        answers.forEach(Runnable::run);
    }

    private ControllerException notController() {
        String known = leader.leaderId().isPresent() ? "; the leader is " + leader.leaderId().getAsInt() : "";
        return new ControllerException(Errors.NOT_CONTROLLER, "Node " + nodeId + " is not the active controller" + known);
    }

    // ---- fencing timer --------------------------------------------------------------------------------------

    private void rescheduleFencing() {
        if (managers == null) {
            cancelFencingTimer();
            return;
        }
        long nowMs = System.currentTimeMillis();
        long deadlineMs = managers.nextFencingDeadlineMs(nowMs);
        if (deadlineMs == fencingDeadlineMs && fencingTimer != null) {
            return;
        }
        cancelFencingTimer();
        fencingDeadlineMs = deadlineMs;
        if (deadlineMs != Long.MAX_VALUE) {
            fencingTimer = loop.schedule(() -> runEvent(this::fenceStaleBrokers),
                    Math.max(0, deadlineMs - nowMs), TimeUnit.MILLISECONDS);
        }
    }

    private void cancelFencingTimer() {
        if (fencingTimer != null) {
            fencingTimer.cancel(false);
            fencingTimer = null;
        }
        fencingDeadlineMs = Long.MAX_VALUE;
    }

    private void fenceStaleBrokers() {
        fencingTimer = null;
        fencingDeadlineMs = Long.MAX_VALUE;
        if (managers == null) {
            return;
        }
        ControllerResult<List<Integer>> result = managers.fenceStaleBrokers(System.currentTimeMillis());
        if (!result.records().isEmpty()) {
            LOG.info("Controller {} fences stale brokers {}", nodeId, result.response());
            appendAndAnswer(result, new CompletableFuture<>());
        }
        rescheduleFencing();
    }

    // ---- Raft listener (called on the Raft thread; everything moves onto the loop) --------------------------

    @Override
    public void handleCommit(CommittedBatch batch) {
        runEvent(() -> applyCommitted(batch));
    }

    @Override
    public void handleLoadSnapshot(SnapshotId snapshotId) {
        runEvent(() -> loadSnapshot(snapshotId));
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leaderAndEpoch) {
        runEvent(() -> changeLeader(leaderAndEpoch));
    }

    private void applyCommitted(CommittedBatch batch) {
        Optional<AppliedBatch> applied = loader.applyCommitted(batch);
        if (applied.isEmpty()) {
            return; // already part of a loaded snapshot
        }
        // The active controller's view already holds its own records; only the split into committed and not moves.
        if (managers != null) {
            try {
                if (batch.epoch() != leaderEpoch) {
                    throw new IllegalStateException("a batch of epoch " + batch.epoch() + " committed");
                }
                managers.committed(loader.image());
            } catch (IllegalStateException e) {
                LOG.error("Controller {} stops serving epoch {}: {}", nodeId, leaderEpoch, e.getMessage());
                resign();
            }
        }
        releaseAnswers();
        maybeSnapshot();
    }

    private void maybeSnapshot() {
        if (driver != null) {
            loader.maybeSnapshot(System.currentTimeMillis()).ifPresent(driver::snapshotCreated);
        }
    }

    private void loadSnapshot(SnapshotId snapshotId) {
        if (!loader.loadSnapshot(snapshotId)) {
            return; // our state already covers it
        }
        if (managers != null) {
            managers = newManagers();
        }
        releaseAnswers();
    }

    private void changeLeader(LeaderAndEpoch newLeader) {
        leader = newLeader;
        boolean leading = newLeader.leaderId().isPresent() && newLeader.leaderId().getAsInt() == nodeId;
        if (leading && leaderEpoch == newLeader.epoch()) {
            return;
        }
        if (leaderEpoch != -1) {
            LOG.info("Controller {} is no longer active (epoch {})", nodeId, leaderEpoch);
            leaderEpoch = -1;
            managers = null;
            cancelFencingTimer();
            List<CompletableFuture<?>> failed = new ArrayList<>(pending);
            pending.clear();
            failed.forEach(f -> f.completeExceptionally(notController()));
        }
        if (leading) {
            leaderEpoch = newLeader.epoch();
            claim(leaderEpoch, -1);
        }
    }

    /**
     * Becomes active once the high watermark reaches the log end this leader had at election: all records of
     * earlier epochs have then been applied to the image (the Raft thread reports commits before it answers).
     */
    private void claim(int epoch, long electionEndOffset) {
        driver.describe().whenComplete((description, error) -> runEvent(() -> {
            if (leaderEpoch != epoch || managers != null) {
                return;
            }
            if (error != null || description.epoch() != epoch) {
                scheduleClaim(epoch, electionEndOffset);
                return;
            }
            long endOffset = electionEndOffset >= 0 ? electionEndOffset : ownEndOffset(description);
            if (description.highWatermark() >= endOffset && endOffset >= 0) {
                nextWriteOffset = description.highWatermark();
                managers = newManagers();
                LOG.info("Controller {} is active in epoch {} at committed offset {}", nodeId, epoch,
                        loader.image().offset());
                rescheduleFencing();
            } else {
                scheduleClaim(epoch, endOffset);
            }
        }));
    }

    private void scheduleClaim(int epoch, long electionEndOffset) {
        try {
            loop.schedule(() -> runEvent(() -> claim(epoch, electionEndOffset)), CLAIM_POLL_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    private long ownEndOffset(QuorumDescription description) {
        return description.members().stream().filter(m -> m.replicaId() == nodeId)
                .mapToLong(QuorumDescription.Member::endOffset).findFirst().orElse(-1);
    }

    private ControlManagers newManagers() {
        return ControlManagers.fromImage(loader.image(), settings, topicConfigs, supportedFeatures, random);
    }

    private void resign() {
        LOG.warn("Controller {} resigns epoch {}: an append failed", nodeId, leaderEpoch);
        managers = newManagers();
        driver.resign(leaderEpoch);
    }

    // ---- loop plumbing ---------------------------------------------------------------------------------------

    private boolean runEvent(Runnable event) {
        try {
            loop.execute(() -> {
                if (closed) {
                    return;
                }
                try {
                    event.run();
                } catch (RuntimeException e) {
                    LOG.error("Controller {} event failed", nodeId, e);
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Stops the loop and closes the state store; pending requests fail with NOT_CONTROLLER. Close the driver first. */
    @Override
    public void close() {
        try {
            loop.submit(() -> {
                closed = true;
                pending.forEach(f -> f.completeExceptionally(new ControllerException(Errors.NOT_CONTROLLER,
                        "Controller " + nodeId + " shut down")));
                pending.clear();
                awaitingImage.clear();
                loader.close();
            }).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("Controller {} did not shut down cleanly", nodeId, e);
        }
        loop.shutdownNow();
    }
}
