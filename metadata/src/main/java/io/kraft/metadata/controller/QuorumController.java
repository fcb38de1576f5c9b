package io.kraft.metadata.controller;

import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.authorizer.AclFilter;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataChangeListener;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.MetadataSource;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.loader.CommittedRuns;
import io.kraft.metadata.loader.MetadataLoader;
import io.kraft.metadata.loader.PublisherQueue;
import io.kraft.metadata.loop.EventLoop;
import io.kraft.metadata.loop.SingleThreadEventLoop;
import io.kraft.metadata.loop.Time;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.LeaderReady;
import io.kraft.raft.NotLeaderException;
import io.kraft.raft.RaftClient;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SnapshotId;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata controller of one quorum member: one {@link EventLoop} that owns the committed image and the stored
 * state (through a {@link MetadataLoader}, as a broker's observer does) and, while this member is the active
 * controller, the {@link ControlManagers}. It talks to Raft only through {@link RaftClient} and {@link RaftListener},
 * reads time only from its {@link Time}, and publishes images on a publisher loop of its own, so a simulation can run
 * it deterministically.
 *
 * <p>As a {@link RaftListener} it applies every committed batch to the image and the store. On the active controller
 * a request runs on the loop: the managers generate records, they enter the managers' view at once (so the next
 * request sees them), Raft appends them, and the request's future completes once the committed image includes them,
 * so a caller reads its own write in {@link #image()}. A member becomes active when Raft reports its epoch ready
 * ({@link #handleLeaderReady}: every earlier epoch's record has been applied), so its managers start from a complete
 * image; it stops when leadership moves, or resigns when its view no longer matches the log. Every request fails
 * with {@link Errors#NOT_CONTROLLER} on a member that is not active, and pending ones fail with it when leadership is
 * lost. A committed batch that does not apply is a fault for the {@link FaultHandler}. Build with {@link #builder},
 * then {@link #start}.
 */
public final class QuorumController implements Controller, MetadataSource, RaftListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QuorumController.class);

    /** A request that wrote nothing, waiting for the records it read to commit. */
    private record PendingRead(CompletableFuture<?> future, Runnable answer) {
    }

    private final int nodeId;
    private final ControllerSettings settings;
    private final TransactionSettings transactionSettings;
    private final TopicConfigResolver topicConfigs;
    private final Map<String, SupportedRange> supportedFeatures;
    private final Random random;
    private final Time time;
    private final EventLoop loop;
    private final EventLoop publisherLoop;
    private final FaultHandler faultHandler;
    private final BrokerProbe brokerProbe;
    private final MetadataLoader loader;
    /** Committed batches waiting for the loop (filled on Raft's thread). */
    private final CommittedRuns committedRuns = new CommittedRuns();

    private RaftClient raft;
    private volatile LeaderAndEpoch leader = new LeaderAndEpoch(OptionalInt.empty(), 0);
    /** The epoch this member serves as active controller, or -1 (readable from any thread). */
    private volatile int activeEpoch = -1;
    /** Present only while this member is the active controller; then it is {@link #standby}. */
    private ControlManagers managers;
    /**
     * The managers every member keeps in step with the committed log (their indexes follow each committed delta), so
     * that becoming active costs nothing however large the image: a failover does not wait for a rebuild. Rebuilt from
     * the image only when its state stops matching the log (a loaded snapshot, uncommitted records of a lost term);
     * null from a snapshot load until the log after it has been applied (a member that far behind builds them once).
     */
    private ControlManagers standby;
    /** Builds {@link #standby} off the loop once a member that loaded a snapshot has caught up. */
    private final StandbyBuild standbyBuild;
    /** The thread {@link #standbyBuild} runs on, if this controller made it (shut down at close). */
    private final ExecutorService standbyThread;
    /** The epoch this member leads, or -1. Set at election; {@link #managers} appears once the epoch is ready. */
    private int leaderEpoch = -1;
    /** The offset the next appended record will get (exact: only the leader appends in its epoch). */
    private long nextWriteOffset;
    private final List<CompletableFuture<?>> pending = new ArrayList<>();
    /** Answers to committed requests, released once the image reaches their last offset (read-your-writes). */
    private final TreeMap<Long, List<Runnable>> awaitingImage = new TreeMap<>();
    /** Requests that wrote nothing, by the last offset of the view they read; they fail if this member stops. */
    private final TreeMap<Long, List<PendingRead>> awaitingCommit = new TreeMap<>();
    private final ActiveControllerTimers timers;
    private final TakeoverProbes takeoverProbes = new TakeoverProbes();
    private volatile boolean closed;

    /** Appended by the first active controller of an empty log. */
    private final List<MetadataRecord> bootstrapRecords;

    QuorumController(QuorumControllerBuilder builder) {
        this.nodeId = builder.nodeId;
        this.bootstrapRecords = builder.bootstrapRecords;
        this.settings = builder.settings;
        this.transactionSettings = builder.transactionSettings;
        this.topicConfigs = Objects.requireNonNull(builder.topicConfigs, "topicConfigs");
        this.supportedFeatures = Map.copyOf(builder.supportedFeatures);
        this.random = new Random(builder.randomSeed);
        this.time = builder.time;
        this.faultHandler = Objects.requireNonNull(builder.faultHandler, "faultHandler");
        this.brokerProbe = builder.brokerProbe;
        this.loop = builder.eventLoop != null ? builder.eventLoop
                : new SingleThreadEventLoop("quorum-controller-" + nodeId, faultHandler);
        this.timers = new ActiveControllerTimers(nodeId, loop, time, builder.leaderBalance, () -> managers,
                (name, result) -> appendAndAnswer(name, result, new CompletableFuture<>()), this::runNow);
        this.publisherLoop = builder.publisherLoop != null ? builder.publisherLoop
                : new SingleThreadEventLoop("metadata-publisher-" + nodeId, faultHandler);
        String owner = "Controller " + nodeId;
        this.loader = new MetadataLoader(owner, Objects.requireNonNull(builder.storage, "storage"),
                builder.snapshotPolicy, time, new PublisherQueue(owner, publisherLoop, faultHandler));
        this.standby = newManagers(MetadataImage.EMPTY);
        Executor standbyBuilder = builder.standbyBuilder;
        if (standbyBuilder == null && builder.eventLoop != null) {
            standbyBuilder = Runnable::run;
        }
        this.standbyThread = standbyBuilder != null ? null : Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "standby-indexes-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
        this.standbyBuild = new StandbyBuild(standbyBuilder != null ? standbyBuilder : standbyThread,
                task -> runEvent("standby managers built", task), this::newManagers);
    }

    private ControlManagers newManagers(MetadataImage image) {
        return ControlManagers.fromImage(image, settings, transactionSettings, topicConfigs, supportedFeatures,
                random);
    }

    /** Starts building the controller of quorum member {@code nodeId}. */
    public static QuorumControllerBuilder builder(int nodeId, ControllerSettings settings) {
        return new QuorumControllerBuilder(nodeId, settings);
    }

    /**
     * Connects the Raft client whose listener this controller is, and starts the time-based snapshot check. Call
     * before Raft starts.
     */
    public void start(RaftClient raftClient) {
        this.raft = Objects.requireNonNull(raftClient, "raftClient");
        scheduleSnapshotCheck();
    }

    /** The standby's managers, or null while this member has none (built off the loop after a snapshot load). */
    ControlManagers standbyManagers() {
        return standby;
    }

    /** Adds a publisher; it receives every image committed from now on, on the publisher loop. */
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

    /** The last image every publisher has taken in (readable from any thread). */
    public MetadataImage publishedImage() {
        return loader.publishedImage();
    }

    /** The leader this member last heard of (readable from any thread). */
    public LeaderAndEpoch leader() {
        return leader;
    }

    /** The epoch this member serves as the active controller, if it does (readable from any thread). */
    public OptionalInt activeEpoch() {
        int epoch = activeEpoch;
        return epoch < 0 ? OptionalInt.empty() : OptionalInt.of(epoch);
    }

    // ---- requests -------------------------------------------------------------------------------------------

    /** Registers a broker incarnation; answers its new broker epoch. */
    @Override
    public CompletableFuture<Long> registerBroker(BrokerRegistrationRequest request) {
        return submit("registerBroker", m -> m.registerBroker(request, time.monotonicMs()));
    }

    @Override
    public CompletableFuture<BrokerHeartbeatReply> heartbeat(BrokerHeartbeatRequest request) {
        return submit("heartbeat", m -> m.heartbeat(request, time.monotonicMs()));
    }

    @Override
    public CompletableFuture<Void> unregisterBroker(int brokerId) {
        return submit("unregisterBroker", m -> m.unregisterBroker(brokerId));
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

    /** Deletes one topic; answers its id. */
    @Override
    public CompletableFuture<UUID> deleteTopic(String topicName) {
        return submit("deleteTopic", m -> m.deleteTopic(topicName));
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

    @Override
    public CompletableFuture<Map<TopicIdPartition, Errors>> assignReplicasToDirs(AssignReplicasToDirsRequest request) {
        return submit("assignReplicasToDirs", m -> m.assignReplicasToDirs(request));
    }

    @Override
    public CompletableFuture<Map<String, Map<Integer, ApiError>>> electLeaders(
            ElectionType type, Optional<Map<String, Set<Integer>>> partitions) {
        return submit("electLeaders " + type, m -> m.electLeaders(type, partitions));
    }

    @Override
    public CompletableFuture<Map<String, Map<Integer, ApiError>>> alterPartitionReassignments(
            Map<String, Map<Integer, Optional<List<Integer>>>> targets, boolean allowReplicationFactorChange) {
        return submit("alterPartitionReassignments", m -> m.alterPartitionReassignments(targets,
                allowReplicationFactorChange));
    }

    /** Sets (present value) or deletes (empty) config keys of one resource. */
    @Override
    public CompletableFuture<Void> incrementalAlterConfigs(ConfigResource resource, Map<String, Optional<String>> changes) {
        return submit("incrementalAlterConfigs", m -> m.incrementalAlterConfigs(resource, changes));
    }

    @Override
    public CompletableFuture<List<ApiError>> createAcls(List<StandardAcl> acls) {
        return submit("createAcls", m -> m.createAcls(acls));
    }

    @Override
    public CompletableFuture<Map<String, ApiError>> updateFeatures(
            Map<String, FeatureControlManager.FeatureUpdate> updates, boolean validateOnly) {
        return submit("updateFeatures", m -> m.features().updateFeatures(updates, validateOnly));
    }

    @Override
    public CompletableFuture<List<ApiError>> alterClientQuotas(
            List<io.kraft.metadata.quota.ClientQuotaAlteration> entries, boolean validateOnly) {
        return submit("alterClientQuotas", m -> m.alterClientQuotas(entries, validateOnly));
    }

    @Override
    public CompletableFuture<List<AclDeleteResult>> deleteAcls(List<AclFilter> filters) {
        return submit("deleteAcls", m -> m.deleteAcls(filters));
    }

    @Override
    public CompletableFuture<Map<String, ApiError>> alterUserScramCredentials(List<ScramAlteration> alterations) {
        return submit("alterUserScramCredentials", m -> m.alterUserScramCredentials(alterations));
    }

    @Override
    public CompletableFuture<ProducerIdBlock> allocateProducerIds(int brokerId, long brokerEpoch) {
        return submit("allocateProducerIds", m -> m.allocateProducerIds(brokerId, brokerEpoch));
    }

    @Override
    public CompletableFuture<TransactionalProducer> initTransactionalProducer(String transactionalId, int timeoutMs,
                                                                             long producerId, short producerEpoch) {
        return submit("initProducerId " + transactionalId, m -> m.transactions().initProducerId(transactionalId,
                timeoutMs, producerId, producerEpoch, time.wallClockMs()));
    }

    @Override
    public CompletableFuture<Map<String, Map<Integer, Errors>>> addPartitionsToTransaction(
            String transactionalId, long producerId, short producerEpoch, Map<String, List<Integer>> partitions,
            int transactionVersion) {
        return submit("addPartitionsToTxn " + transactionalId, m -> m.transactions().addPartitions(transactionalId,
                producerId, producerEpoch, partitions, transactionVersion, time.wallClockMs()));
    }

    @Override
    public CompletableFuture<Void> addOffsetsToTransaction(String transactionalId, long producerId,
                                                           short producerEpoch, String groupId, String offsetsTopic,
                                                           int offsetsPartition, int transactionVersion) {
        return submit("addOffsetsToTxn " + transactionalId, m -> m.transactions().addOffsets(transactionalId,
                producerId, producerEpoch, groupId, offsetsTopic, offsetsPartition, transactionVersion,
                time.wallClockMs()));
    }

    @Override
    public CompletableFuture<TransactionalProducer> endTransaction(String transactionalId, long producerId,
                                                                   short producerEpoch, boolean commit,
                                                                   boolean bumpEpoch) {
        return submit("endTxn " + transactionalId, m -> m.transactions().endTransaction(transactionalId, producerId,
                producerEpoch, commit, bumpEpoch, time.wallClockMs()));
    }

    @Override
    public CompletableFuture<Void> transactionMarkersWritten(TransactionMarkersWritten report) {
        return submit("transactionMarkersWritten " + report.transactionalId(),
                m -> m.transactions().markersWritten(report, time.wallClockMs()));
    }

    /**
     * A broker's control-plane connection closed: unless it reconnects within the connection-loss grace, the
     * fencing timer fences it without waiting for its session to expire.
     */
    public void connectionClosed(int brokerId) {
        runEvent("connectionClosed " + brokerId, () -> {
            if (managers != null) {
                managers.connectionClosed(brokerId, time.monotonicMs());
                timers.rescheduleFencing();
                probe(brokerId);
            }
        });
    }

    /**
     * A broker that may be gone: if nothing listens at its endpoints any more, it is fenced without the grace, in the
     * event that hears the refusal (not a timer's turn later). A refusal heard while this member is elected but not
     * yet active waits for the activation ({@link TakeoverProbes}).
     */
    private void probe(int brokerId) {
        BrokerRegistration broker = loader.image().cluster().broker(brokerId);
        if (broker != null && !broker.fenced()) {
            int epoch = leaderEpoch;
            brokerProbe.probe(brokerId, broker.listeners(), () -> runEvent("connectionRefused " + brokerId, () -> {
                if (managers == null) {
                    takeoverProbes.refused(epoch, brokerId);
                } else if (refused(brokerId)) {
                    timers.fenceNow();
                }
            }));
        }
    }

    private boolean refused(int brokerId) {
        if (!managers.connectionRefused(brokerId, time.monotonicMs())) {
            return false;
        }
        LOG.info("Controller {} found nothing listening at broker {}'s endpoints; it fences it now", nodeId, brokerId);
        return true;
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
        boolean queued = loop.execute(name, () -> guarded(name, () -> {
            if (closed) {
                future.completeExceptionally(shutDown());
                return;
            }
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
                answerOnceViewCommits(future, result.response());
            } else {
                appendAndAnswer(name, result, future);
            }
            timers.rescheduleFencing();
            timers.rescheduleTransactions();
        }));
        if (!queued) {
            future.completeExceptionally(shutDown());
        }
        return future;
    }

    private <T> void appendAndAnswer(String name, ControllerResult<T> result, CompletableFuture<T> future) {
        List<MetadataRecord> records = result.records();
        long firstOffset = nextWriteOffset;
        long expectedLastOffset = firstOffset + records.size() - 1;
        int epoch = leaderEpoch;
        try {
            managers.replayBatch(records, firstOffset, epoch);
        } catch (RuntimeException e) {
            future.completeExceptionally(new ControllerException(Errors.UNKNOWN_SERVER_ERROR,
                    name + " generated records that do not apply: " + e.getMessage()));
            stopServing("its own records for " + name + " did not apply: " + e.getMessage(), true);
            return;
        }
        nextWriteOffset += records.size();
        pending.add(future);
        List<byte[]> serialized = records.stream().map(MetadataRecord::toByteArray).toList();
        raft.append(epoch, serialized).whenComplete((lastOffset, error) -> runEvent("appended " + name, () -> {
            pending.remove(future);
            if (error == null) {
                if (lastOffset != expectedLastOffset && leaderEpoch == epoch && managers != null) {
                    stopServing("its records for " + name + " landed at " + lastOffset + ", not "
                            + expectedLastOffset, true);
                }
                whenImageReaches(lastOffset, () -> future.complete(result.response()));
            } else {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                future.completeExceptionally(notController());
                if (managers != null && leaderEpoch == epoch) {
                    // Its view holds records that may never commit; only a new epoch starts from the log again. Raft
                    // that refuses with NotLeaderException has moved on already, so there is nothing to resign.
                    boolean movedOn = cause instanceof NotLeaderException;
                    stopServing(movedOn ? "Raft no longer leads the epoch" : "an append failed: " + cause, !movedOn);
                }
            }
        }));
    }

    /**
     * Answers a request that wrote nothing once every record it read in the view has committed: until then its
     * answer rests on records that may still be lost (a topic it found existing, a config value it found set).
     */
    private <T> void answerOnceViewCommits(CompletableFuture<T> future, T response) {
        long readOffset = managers.metadata().lastOffset();
        if (loader.image().offset() >= readOffset) {
            future.complete(response);
        } else {
            awaitingCommit.computeIfAbsent(readOffset, o -> new ArrayList<>())
                    .add(new PendingRead(future, () -> future.complete(response)));
        }
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
        // Only an active controller gets here with its own records committed; any other fails these in deactivate.
        Map<Long, List<PendingRead>> read = awaitingCommit.headMap(loader.image().offset(), true);
        List<PendingRead> readers = read.values().stream().flatMap(List::stream).toList();
        read.clear();
        readers.forEach(reader -> reader.answer().run());
    }

    private ControllerException shutDown() {
        return new ControllerException(Errors.NOT_CONTROLLER, "Controller " + nodeId + " is shut down");
    }

    private ControllerException notController() {
        String known = leader.leaderId().isPresent() ? "; the leader is " + leader.leaderId().getAsInt() : "";
        return new ControllerException(Errors.NOT_CONTROLLER, "Node " + nodeId + " is not the active controller" + known);
    }

    // ---- Raft listener (called on Raft's thread; everything moves onto the loop) ----------------------------

    @Override
    public void handleCommit(CommittedBatch batch) {
        // Batches committed while the loop is busy join the waiting run: a member far behind applies few deltas.
        CommittedRuns.Run run = committedRuns.add(batch);
        if (run != null) {
            runEvent("commit " + batch.baseOffset(), () -> applyCommitted(committedRuns.take(run)));
        }
    }

    @Override
    public void handleLoadSnapshot(SnapshotId snapshotId) {
        committedRuns.cut();
        runEvent("load snapshot " + snapshotId, () -> loadSnapshot(snapshotId));
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leaderAndEpoch) {
        committedRuns.cut();
        runEvent("leader change " + leaderAndEpoch, () -> changeLeader(leaderAndEpoch));
    }

    @Override
    public void handleLeaderReady(LeaderReady ready) {
        committedRuns.cut();
        runEvent("leader ready " + ready.epoch(), () -> becomeActive(ready));
    }

    private void applyCommitted(List<CommittedBatch> batches) {
        if (managers != null) {
            // The active controller checks each batch's epoch against its own, so it takes them one at a time.
            batches.forEach(batch -> applyCommitted(List.of(batch), batch));
        } else if (!batches.isEmpty()) {
            applyCommitted(batches, batches.get(batches.size() - 1));
        }
        if (committedRuns.idle()) {
            if (standby == null && managers == null && !closed && !standbyBuild.running()) {
                // Off the loop: the log goes on applying meanwhile, its changes recorded for the managers.
                standbyBuild.start(loader.image(), (built, timing) -> {
                    built.followCommitted(loader.image());
                    standby = built;
                    loader.catchUp().indexesBuiltOffLoop(timing.buildNanos(), timing.queuedNanos()
                            + timing.loopWaitNanos(), timing.replayNanos(), timing.changes(), loader.image().offset());
                });
            }
            loader.catchUp().caughtUp(loader.image().offset());
        }
        releaseAnswers();
        maybeSnapshot();
    }

    private void applyCommitted(List<CommittedBatch> batches, CommittedBatch last) {
        if (closed) {
            return;
        }
        boolean applied;
        try {
            // The active controller's view already heard its own records; a standby's indexes hear them now.
            applied = loader.applyCommitted(batches, managers != null ? MetadataChangeListener.NONE
                    : standby != null ? standby.committedChanges() : standbyBuild.listener());
        } catch (RuntimeException e) {
            fault("could not apply the committed metadata batches at " + batches.get(0).baseOffset() + ".."
                    + last.lastOffset() + ": " + e.getMessage(), e);
            return;
        }
        if (applied && managers != null) {
            // The view already holds the active controller's own records; only its split into committed and pending
            // moves. A record of another epoch means the log moved on without this controller.
            if (last.epoch() != leaderEpoch) {
                stopServing("a batch of epoch " + last.epoch() + " committed", false);
            } else {
                try {
                    managers.committed(loader.image());
                } catch (IllegalStateException e) {
                    stopServing(e.getMessage(), true);
                }
            }
        } else if (applied && standby != null) {
            long started = System.nanoTime();
            standby.followCommitted(loader.image());
            loader.catchUp().followed(System.nanoTime() - started);
        }
    }

    private void maybeSnapshot() {
        if (raft != null) {
            loader.snapshotIfDue(raft);
        }
    }

    private void scheduleSnapshotCheck() {
        loop.schedule("snapshot check", time.monotonicMs() + loader.snapshotCheckIntervalMs(),
                () -> runNow("snapshot check", () -> {
                    maybeSnapshot();
                    scheduleSnapshotCheck();
                }));
    }

    private void loadSnapshot(SnapshotId snapshotId) {
        boolean loaded;
        try {
            loaded = loader.loadSnapshot(snapshotId);
        } catch (RuntimeException e) {
            fault("could not load metadata snapshot " + snapshotId + ": " + e.getMessage(), e);
            return;
        }
        if (loaded && managers != null) {
            stopServing("snapshot " + snapshotId + " replaced its state", true);
        }
        if (loaded) {
            // Far behind: the indexes are built once, over the caught-up image (see applyCommitted), rather than over
            // the snapshot and then followed record by record through the log after it.
            standby = null;
            standbyBuild.cancel();
        }
        releaseAnswers();
    }

    private void changeLeader(LeaderAndEpoch newLeader) {
        leader = newLeader;
        if (newLeader.leaderId().isPresent()) {
            loader.catchUp().leaderKnown();
        }
        boolean leading = newLeader.leaderId().isPresent() && newLeader.leaderId().getAsInt() == nodeId;
        if (leading && leaderEpoch == newLeader.epoch()) {
            return;
        }
        if (leaderEpoch != -1) {
            LOG.info("Controller {} no longer leads epoch {}; now epoch {}", nodeId, leaderEpoch, newLeader.epoch());
            leaderEpoch = -1;
            takeoverProbes.stop();
            deactivate();
            List<CompletableFuture<?>> failed = new ArrayList<>(pending);
            pending.clear();
            failed.forEach(f -> f.completeExceptionally(notController()));
        }
        if (leading) {
            leaderEpoch = newLeader.epoch();
            LOG.info("Controller {} leads epoch {}; it serves once the epoch is ready", nodeId, leaderEpoch);
            // Brokers that died with the previous controller never reconnect: probe them while the epoch gets ready.
            takeoverProbes.start(leaderEpoch);
            loader.image().cluster().brokers().keySet().forEach(this::probe);
        }
    }

    /**
     * Raft reports this member's epoch ready: every record of earlier epochs has been handed to
     * {@link #handleCommit}, and so applied to the image (events run in order), so managers built from the image now
     * start from the whole log.
     */
    private void becomeActive(LeaderReady ready) {
        if (ready.epoch() != leaderEpoch || managers != null) {
            return;
        }
        MetadataImage image = loader.image();
        if (image.offset() >= ready.nextOffset()) {
            LOG.error("Controller {} cannot serve epoch {}: its image is at {} but appends start at {}", nodeId,
                    ready.epoch(), image.offset(), ready.nextOffset());
            raft.resign(ready.epoch());
            return;
        }
        nextWriteOffset = ready.nextOffset();
        // A standby still being built off the loop is dropped: serving cannot wait for it.
        standbyBuild.cancel();
        if (standby == null || standby.metadata().committedImage() != image) {
            LOG.warn("Controller {} rebuilds its managers: they follow offset {}, not the image at {}", nodeId,
                    standby == null ? "(none since its snapshot load)" : standby.metadata().committedImage().offset(),
                    image.offset());
            standby = newManagers(image);
        }
        managers = standby;
        managers.activate(time.monotonicMs());
        activeEpoch = ready.epoch();
        LOG.info("Controller {} is active in epoch {} at committed offset {}; its records start at {}", nodeId,
                ready.epoch(), image.offset(), nextWriteOffset);
        timers.activate();
        // Brokers that died with the previous controller never reconnect: those whose endpoints refuse need no grace.
        // The probes started at the election answered meanwhile; the others (and brokers registered since) go now.
        Set<Integer> refused = takeoverProbes.takeRefused(ready.epoch());
        if (refused.stream().map(this::refused).reduce(false, Boolean::logicalOr)) { // every one is recorded
            timers.fenceNow();
        }
        loader.image().cluster().brokers().keySet().stream().filter(id -> !refused.contains(id)).forEach(this::probe);
        if (image.offset() == MetadataProvenance.EMPTY.offset() && !bootstrapRecords.isEmpty()) {
            // A new cluster: nothing was ever committed, so format's bootstrap records come first (a leader that
            // appended them but failed before they committed left nothing, and this one appends them again).
            LOG.info("Controller {} appends {} bootstrap metadata records to the new cluster's log", nodeId,
                    bootstrapRecords.size());
            submit("bootstrap metadata", m -> ControllerResult.of(bootstrapRecords, null)).whenComplete((ok, e) -> {
                if (e != null) {
                    // The next active controller finds the log still empty and appends them again.
                    LOG.warn("Controller {} could not append the bootstrap metadata records: {}", nodeId, e.toString());
                }
            });
        }
    }

    /** Stops serving the current epoch: requests answer NOT_CONTROLLER until a later epoch is ready. */
    private void stopServing(String reason, boolean resign) {
        LOG.warn("Controller {} stops serving epoch {}{}: {}", nodeId, leaderEpoch, resign ? " and resigns" : "",
                reason);
        deactivate();
        if (resign && raft != null) {
            raft.resign(leaderEpoch);
        }
    }

    private void deactivate() {
        if (managers != null && !closed && (managers.metadata().hasUncommitted()
                || managers.metadata().committedImage() != loader.image())) {
            // Its indexes saw records that may never commit (or missed a batch of another term): start again from
            // the committed image, the one time a lost term costs a pass over it.
            standby = newManagers(loader.image());
        }
        managers = null;
        activeEpoch = -1;
        timers.cancel();
        List<PendingRead> readers = awaitingCommit.values().stream().flatMap(List::stream).toList();
        awaitingCommit.clear();
        readers.forEach(reader -> reader.future().completeExceptionally(notController()));
    }

    private void fault(String what, Throwable cause) {
        closed = true;
        deactivate();
        faultHandler.handleFault("Controller " + nodeId + " " + what, cause);
    }

    // ---- loop plumbing ---------------------------------------------------------------------------------------

    private boolean runEvent(String name, Runnable event) {
        return loop.execute(name, () -> runNow(name, event));
    }

    private void runNow(String name, Runnable event) {
        if (!closed) {
            guarded(name, event);
        }
    }

    /**
     * Runs an event of the loop; one that throws is a fault. The managers and the image are only ever changed on this
     * loop, and an event that stopped half way may have left them apart, so the controller must not go on serving.
     */
    private void guarded(String name, Runnable event) {
        try {
            event.run();
        } catch (Throwable e) {
            fault("failed in event " + name + ": " + e, e);
        }
    }

    /** Stops the loop and closes the state store; pending requests fail with NOT_CONTROLLER. Close Raft first. */
    @Override
    public void close() {
        loop.execute("close", () -> {
            closed = true;
            deactivate();
            standbyBuild.cancel();
            if (standbyThread != null) {
                standbyThread.shutdownNow();
            }
            pending.forEach(f -> f.completeExceptionally(shutDown()));
            pending.clear();
            awaitingImage.clear();
            loader.close();
        });
        loop.close();
        publisherLoop.close();
    }
}
