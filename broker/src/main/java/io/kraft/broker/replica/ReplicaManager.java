package io.kraft.broker.replica;

import io.kraft.broker.fetch.DelayedFetch;
import io.kraft.broker.fetch.FetchParams;
import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.broker.fetch.follower.ReplicaFetcherManager;
import io.kraft.broker.quota.QuotaWindows;
import io.kraft.config.TopicConfigResolver;
import io.kraft.config.TopicLogSettings;
import io.kraft.metadata.controller.AlterPartitionRequest;
import io.kraft.metadata.controller.OfflineLogDir;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.broker.network.InterBrokerSecurity;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.LocalReplicaChanges;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicDelta;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.image.TopicsDelta;
import io.kraft.storage.PreviousShutdown;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.TopicPartition;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's partitions: creates, loads and deletes their logs as the metadata says (it is a
 * {@link MetadataPublisher}), makes each the leader or a follower at the leader epoch the metadata gives, and
 * serves the data path: leader appends ({@link #appendRecords}, with acks=all waiting in a purgatory until the
 * high watermark passes the records, and the transaction coordinator's markers, {@link #writeTxnMarkers}), reads
 * bounded by the high watermark or the last stable offset ({@link #fetchMessages}, long-polling
 * in a purgatory for {@code min_bytes}), and the offset lookups of ListOffsets, OffsetForLeaderEpoch and
 * DeleteRecords through {@link #partitionOrError}.
 *
 * <p>Logs live in {@code log.dirs}; a new partition goes to the directory with the fewest logs, and a replica moves to
 * another one on request (AlterReplicaLogDirs, {@link LogDirMover}). Each log's
 * settings are the topic's overrides over the broker defaults and follow topic config changes. High
 * watermarks are checkpointed per directory ({@code replication-offset-checkpoint}) periodically and on close.
 * With replication enabled (a {@link Replication} given at construction) followers fetch from their leaders (a
 * {@link ReplicaFetcherManager}), and leaders advance their high watermark with followers' fetch positions and
 * propose ISR changes to the controller: expansions when a follower catches up, shrinks (checked every half
 * {@code replica.lag.time.max.ms}) when one falls behind; {@link FollowerFetches} decides which follower fetches
 * count. Without it followers only keep their logs.
 *
 * <p>A log directory whose disk fails (any I/O error on its files) goes offline as a whole, Kafka's JBOD model
 * (KIP-112, KIP-858): on a thread of its own ({@link LogDirFailures}) the manager stops hosting the directory's partitions (requests for them
 * get KAFKA_STORAGE_ERROR), releases its files and tells its {@link LogDirListener}, whose heartbeat reports the
 * directory and the partitions to the controller, which moves them to other replicas. The other directories keep
 * serving; with none left the listener stops the broker. A partition the controller knows to be in a directory this
 * broker does not have online, or one it must host but holds no log for while a directory is offline (its log may be
 * there), is not created elsewhere: it is offline too.
 */
public final class ReplicaManager implements MetadataPublisher, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaManager.class);
    /** Kafka's logger for replica role changes, which operators route to state-change.log. */
    private static final Logger STATE_CHANGE_LOG = LoggerFactory.getLogger("state.change.logger");
    /** Topics clients may not produce to; their coordinators append with internal topics allowed. */
    public static final Set<String> INTERNAL_TOPICS = Set.of("__consumer_offsets", "__transaction_state");

    private final int brokerId;
    private final ReplicaManagerConfig config;
    /** The topic settings resolver for an image (broker defaults may be dynamic, in the image's configs). */
    private final TopicConfigUpdates topicConfigs;
    private final LongSupplier clock;
    private final LogDirectories logDirs;
    /** High watermarks read at startup, for partitions whose logs outlived the process. */
    private final Map<TopicPartition, Long> checkpointedHighWatermarks;
    private final ConcurrentHashMap<TopicPartition, Partition> partitions = new ConcurrentHashMap<>();
    private final DeadlineTimer timer;
    private final DelayedOperationPurgatory<TopicPartition> producePurgatory;
    private final DelayedOperationPurgatory<TopicPartition> fetchPurgatory;
    private final LeaderAppends leaderAppends;
    private final LogMaintenance maintenance;
    private final List<PartitionLeadershipListener> leadershipListeners = new CopyOnWriteArrayList<>();
    /** Failed log directories and the partitions this broker should host in them. */
    private final LogDirFailures logDirFailures;
    private final StrayLogs strayLogs;
    private final List<TxnMarkerListener> markerListeners = new CopyOnWriteArrayList<>();
    /** Serializes metadata changes with close. */
    private final Object stateLock = new Object();
    private volatile MetadataImage image = MetadataImage.EMPTY;
    /** The image offset at which to look for stray logs, or -1 (see {@link #deleteStrayLogsOnceAt}). */
    private long strayCheckOffset = -1;
    /** Null when followers do not fetch (single-node tests without replication). */
    private final ReplicaFetcherManager fetchers;
    private final ReplicationConfig replication;
    /** Null without replication. */
    private final IsrProposals isrProposals;
    private final FollowerFetches followerFetches;
    private final ReplicationThrottles throttles;
    private final LocalReads localReads;
    private final LogDirMover mover;
    private final DirectoryAssigner directoryAssigner;
    private boolean started;
    private boolean closed;

    /**
     * How this broker takes part in replication: followers fetch from their leaders, leaders manage their ISR.
     *
     * @param alterPartition sends an ISR change to the active controller, answering the partition as committed
     * @param brokerEpoch    this broker's registration epoch, -1 before it registered
     * @param interBroker    how followers reach leaders (TLS, a SASL login), as the inter-broker listener needs
     * @param quotaWindows   how replication throttle rates are measured ({@code replication.quota.window.*})
     */
    public record Replication(ReplicationConfig config,
                              Function<AlterPartitionRequest, CompletableFuture<PartitionRegistration>> alterPartition,
                              LongSupplier brokerEpoch, InterBrokerSecurity interBroker, QuotaWindows quotaWindows) {
        public Replication {
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(alterPartition, "alterPartition");
            Objects.requireNonNull(brokerEpoch, "brokerEpoch");
            Objects.requireNonNull(interBroker, "interBroker");
            Objects.requireNonNull(quotaWindows, "quotaWindows");
        }

        /** Replication with Kafka's default throttle windows. */
        public Replication(ReplicationConfig config,
                           Function<AlterPartitionRequest, CompletableFuture<PartitionRegistration>> alterPartition,
                           LongSupplier brokerEpoch, InterBrokerSecurity interBroker) {
            this(config, alterPartition, brokerEpoch, interBroker, QuotaWindows.DEFAULT);
        }

        /** Replication over plaintext. */
        public Replication(ReplicationConfig config,
                           Function<AlterPartitionRequest, CompletableFuture<PartitionRegistration>> alterPartition,
                           LongSupplier brokerEpoch) {
            this(config, alterPartition, brokerEpoch, InterBrokerSecurity.PLAINTEXT);
        }
    }

    /**
     * Opens every log directory (recovering logs after an unclean stop); partitions come alive as the
     * metadata is published. Without replication, followers only keep their logs.
     */
    public ReplicaManager(int brokerId, ReplicaManagerConfig config, TopicConfigResolver topicConfigs) {
        this(brokerId, config, image -> topicConfigs, System::currentTimeMillis, Optional.empty());
    }

    /**
     * @param topicConfigs the resolver of topic settings for an image, e.g. one honouring dynamic broker defaults
     * @param replication  how this broker replicates; empty for a broker whose followers do not fetch
     */
    public ReplicaManager(int brokerId, ReplicaManagerConfig config,
                          Function<MetadataImage, TopicConfigResolver> topicConfigs, LongSupplier clock,
                          Optional<Replication> replication) {
        this.brokerId = brokerId;
        this.config = config;
        this.topicConfigs = new TopicConfigUpdates(brokerId, topicConfigs, partitions, () -> image);
        this.clock = clock;
        this.replication = replication.map(Replication::config).orElse(null);
        this.isrProposals = replication.map(r -> new IsrProposals(brokerId, r, clock, () -> image,
                this::completeWaitingOn)).orElse(null);
        this.followerFetches = new FollowerFetches(brokerId, () -> image, partitions::get, isrProposals,
                this::completeWaitingOn, clock);
        this.throttles = new ReplicationThrottles(brokerId, replication.map(Replication::quotaWindows)
                .orElse(QuotaWindows.DEFAULT), clock);
        this.fetchers = replication.map(r -> new ReplicaFetcherManager(brokerId, r.config(), this::replicationEndpoint,
                r.interBroker(), r.brokerEpoch(), clock, throttles.follower())).orElse(null);
        LogDirFailures failures = new LogDirFailures(brokerId);
        this.logDirFailures = failures;
        this.logDirs = LogDirectories.open(config.logDirs(), tp -> this.topicConfigs.logConfig(tp.topic()),
                failures::submit);
        failures.attach(logDirs, new FailureHost());
        this.checkpointedHighWatermarks = new ConcurrentHashMap<>(logDirs.readHighWatermarks());
        this.strayLogs = new StrayLogs(brokerId, logDirs, checkpointedHighWatermarks);
        this.timer = new DeadlineTimer("kraft-purgatory-timer-" + brokerId);
        this.producePurgatory = new DelayedOperationPurgatory<>("produce", timer);
        this.fetchPurgatory = new DelayedOperationPurgatory<>("fetch", timer);
        this.localReads = new LocalReads(this::partitionOrError, partitions::containsKey, logDirFailures::isOffline,
                throttles.leader(), config.fetchMaxBytes());
        this.leaderAppends = new LeaderAppends(this::partitionOrError, this::partition, logDirFailures::isOffline,
                producePurgatory, fetchPurgatory, clock);
        this.directoryAssigner = new DirectoryAssigner(brokerId, logDirs);
        this.mover = new LogDirMover(brokerId, logDirs, partitions::get, logDirFailures::isOffline,
                throttles.alterLogDirs(), clock, directoryAssigner::moved, () -> image);
        this.maintenance = new LogMaintenance(config, partitions::values, logDirs, this::checkpointHighWatermarks,
                clock, brokerId);
    }

    /** Starts retention, cleaning, checkpoints and, with replication enabled, the fetchers and ISR checks. */
    public void startup() {
        synchronized (stateLock) {
            if (started || closed) {
                return;
            }
            started = true;
            maintenance.start();
            mover.start();
            if (fetchers != null) {
                fetchers.start();
                isrProposals.start(partitions::values);
            }
        }
    }

    /** Reports replicas' log directories to the controller (KIP-858) once given a sender. */
    public DirectoryAssigner directoryAssigner() {
        return directoryAssigner;
    }

    /** The follower fetchers, when replication is enabled. */
    public Optional<ReplicaFetcherManager> fetchers() {
        return Optional.ofNullable(fetchers);
    }

    /** Where to fetch from a broker: its inter-broker listener (else its first) in the current metadata. */
    public Optional<InetSocketAddress> replicationEndpoint(int sourceBrokerId) {
        BrokerRegistration broker = image.cluster().broker(sourceBrokerId);
        if (broker == null || broker.listeners().isEmpty()) {
            return Optional.empty();
        }
        Optional<String> wanted = replication == null ? Optional.empty() : replication.interBrokerListenerName();
        Endpoint endpoint = broker.listeners().stream()
                .filter(listener -> wanted.isEmpty() || wanted.get().equals(listener.name()))
                .findFirst().orElse(null);
        return endpoint == null ? Optional.empty() : Optional.of(new InetSocketAddress(endpoint.host(), endpoint.port()));
    }

    public int brokerId() {
        return brokerId;
    }

    /** This broker's log directories and the replicas in each (DescribeLogDirs). */
    public List<LogDirDescription> describeLogDirs() {
        return logDirs.describe(tp -> {
            Partition partition = partitions.get(tp);
            return partition == null ? -1 : partition.highWatermark();
        });
    }

    /**
     * AlterReplicaLogDirs (KIP-113): moves each partition's replica to the log directory given, by path, answering
     * each as {@link LogDirMover#requestMove} does; the moves run in the background.
     */
    public Map<TopicPartition, Errors> alterReplicaLogDirs(Map<TopicPartition, Path> moves) {
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        moves.forEach((tp, dir) -> results.put(tp, mover.requestMove(tp, dir)));
        return results;
    }

    /** The log directory moves in progress: per partition, the target directory and the bytes copied so far. */
    public Map<TopicPartition, Map.Entry<Path, Long>> logDirMoves() {
        Map<TopicPartition, Map.Entry<Path, Long>> moves = new LinkedHashMap<>();
        mover.moves().forEach((tp, move) -> moves.put(tp, Map.entry(move.dir(), move.copiedBytes())));
        return moves;
    }

    /** How the previous run left the log directories, as opening them found (see {@link LogDirectories}). */
    public PreviousShutdown previousShutdown() {
        return logDirs.previousShutdown();
    }

    /** The broker epoch the previous process shut down cleanly with, or -1 (KIP-966; see {@link LogDirectories}). */
    public long previousBrokerEpoch() {
        return logDirs.previousBrokerEpoch();
    }

    /** The broker epoch this process's clean shutdown records in the log directories, for the next start. */
    public void setBrokerEpochForShutdown(long brokerEpoch) {
        logDirs.setBrokerEpochForShutdown(brokerEpoch);
    }

    public ReplicaManagerConfig config() {
        return config;
    }

    /** The metadata image last published to this replica manager. */
    public MetadataImage image() {
        return image;
    }

    public void addLeadershipListener(PartitionLeadershipListener listener) {
        leadershipListeners.add(listener);
    }

    /** Adds who hears of each marker {@link #writeTxnMarkers} wrote, once it is committed. */
    public void addTxnMarkerListener(TxnMarkerListener listener) {
        markerListeners.add(listener);
    }

    /** Sets who hears of log directories going offline (the broker's lifecycle); nobody until set. */
    public void setLogDirListener(LogDirListener listener) {
        logDirFailures.setListener(listener);
    }

    /** A hosted partition (leader or follower). */
    public Optional<Partition> partition(TopicPartition tp) {
        return Optional.ofNullable(partitions.get(tp));
    }

    /** The partitions this broker hosts now. */
    public Collection<Partition> partitions() {
        return List.copyOf(partitions.values());
    }

    /**
     * A hosted partition, or the error a request for it gets: NOT_LEADER_OR_FOLLOWER when the partition
     * exists but not here, UNKNOWN_TOPIC_OR_PARTITION when the metadata does not know it.
     */
    public Partition partitionOrError(TopicPartition tp) {
        Partition partition = partitions.get(tp);
        if (partition != null) {
            return partition;
        }
        logDirFailures.throwIfOffline(tp);
        TopicImage topic = image.topics().topic(tp.topic());
        if (topic != null && topic.partition(tp.partition()) != null) {
            throw new ReplicaException(Errors.NOT_LEADER_OR_FOLLOWER, "broker " + brokerId + " does not host "
                    + tp + " (leader " + topic.partition(tp.partition()).leader() + ")");
        }
        throw new ReplicaException(Errors.UNKNOWN_TOPIC_OR_PARTITION, "this server does not host " + tp
                + " and no such topic partition exists");
    }

    // ---- metadata ----------------------------------------------------------------------------------

    @Override
    public void publish(MetadataDelta delta, MetadataImage newImage) {
        synchronized (stateLock) {
            if (closed) {
                return;
            }
            // The first image after a start holds partitions created while the broker was down: none counts as new.
            boolean initialLoad = image == MetadataImage.EMPTY;
            image = newImage;
            try {
                if (delta.hasTopicChanges()) {
                    applyTopicChanges(delta.topicsDelta(), newImage, initialLoad);
                }
                topicConfigs.apply(delta);
                throttles.apply(delta, newImage);
                if (strayCheckOffset >= 0 && newImage.offset() >= strayCheckOffset) {
                    deleteStrayLogs();
                }
            } catch (RuntimeException e) {
                // The metadata thread serves the whole node: a failure here must not stop it.
                LOG.error("Broker {} could not apply metadata at offset {}", brokerId, newImage.offset(), e);
            }
        }
    }

    private void applyTopicChanges(TopicsDelta topicsDelta, MetadataImage newImage, boolean initialLoad) {
        LocalReplicaChanges changes = topicsDelta.localChanges(brokerId);
        for (TopicIdPartition removed : changes.deletes()) {
            TopicImage before = topicsDelta.image().topic(removed.topicId());
            TopicImage after = newImage.topics().topic(removed.topicId());
            String name = before != null ? before.name() : after != null ? after.name() : null;
            if (name != null) {
                removePartition(new TopicPartition(name, removed.partition()), removed.topicId());
            }
        }
        Predicate<TopicIdPartition> isNew = id -> !initialLoad && (topicsDelta.image().topic(id.topicId()) == null
                || topicsDelta.image().topic(id.topicId()).partition(id.partition()) == null);
        changes.leaders().forEach((id, registration) -> {
            if (mayHost(id, registration, isNew.test(id), newImage)) {
                becomeLeaderOrFollower(id, registration, true, newImage);
            }
        });
        changes.followers().forEach((id, registration) -> {
            if (mayHost(id, registration, isNew.test(id), newImage)) {
                becomeLeaderOrFollower(id, registration, false, newImage);
            }
        });
        // ISR or replica set changes that kept the leader and epoch.
        for (TopicDelta topic : topicsDelta.changedTopics().values()) {
            topic.partitionChanges().forEach((partitionId, registration) -> {
                TopicIdPartition id = new TopicIdPartition(topic.id(), partitionId);
                if (changes.leaders().containsKey(id) || changes.followers().containsKey(id)
                        || !registration.replicas().contains(brokerId)) {
                    return;
                }
                TopicPartition tp = new TopicPartition(topic.name(), partitionId);
                Partition partition = partitions.get(tp);
                if (partition != null && partition.topicId().equals(topic.id())
                        && partition.updateRegistration(registration)) {
                    completeWaitingOn(tp);
                }
            });
        }
    }

    /** Whether this broker may host the partition now (its replica is not offline, see {@link LogDirFailures}). */
    private boolean mayHost(TopicIdPartition id, PartitionRegistration registration, boolean isNew,
                            MetadataImage newImage) {
        TopicImage topic = newImage.topics().topic(id.topicId());
        if (topic == null) {
            return false;
        }
        TopicPartition tp = new TopicPartition(topic.name(), id.partition());
        return !logDirFailures.isOfflineReplica(tp, id.topicId(), registration, isNew, partitions.containsKey(tp));
    }

    private void becomeLeaderOrFollower(TopicIdPartition id, PartitionRegistration registration, boolean lead,
                                        MetadataImage newImage) {
        TopicImage topic = newImage.topics().topic(id.topicId());
        if (topic == null) {
            return;
        }
        TopicPartition tp = new TopicPartition(topic.name(), id.partition());
        try {
            Partition partition = partitions.get(tp);
            if (partition != null && !partition.topicId().equals(id.topicId())) {
                // The topic was deleted and recreated under the same name: the old data must go.
                removePartition(tp, partition.topicId());
                partition = null;
            }
            if (partition == null) {
                partition = createPartition(tp, id.topicId());
            }
            boolean wasLeader = partition.isLeader();
            ReplicaFetcherManager currentFetchers = fetchers;
            if (currentFetchers != null) {
                // Before the role changes: afterwards no fetcher writes this log with a stale epoch.
                currentFetchers.removePartitions(Set.of(tp));
            }
            if (lead) {
                partition.makeLeader(registration, clock.getAsLong());
                STATE_CHANGE_LOG.info("Broker {} leads {} in epoch {} from offset {} (high watermark {})", brokerId,
                        tp, registration.leaderEpoch(), partition.logEndOffset(), partition.highWatermark());
                for (PartitionLeadershipListener listener : leadershipListeners) {
                    notifyListener(() -> listener.onBecomeLeader(tp, registration.leaderEpoch()), tp);
                }
            } else {
                partition.makeFollower(registration);
                STATE_CHANGE_LOG.info("Broker {} follows leader {} of {} in epoch {}", brokerId,
                        registration.leader(), tp, registration.leaderEpoch());
                if (currentFetchers != null && registration.hasLeader() && registration.leader() != brokerId) {
                    currentFetchers.addPartition(partition, registration.leader(), registration.leaderEpoch());
                }
                if (wasLeader) {
                    for (PartitionLeadershipListener listener : leadershipListeners) {
                        notifyListener(() -> listener.onResign(tp), tp);
                    }
                }
            }
            completeWaitingOn(tp);
            directoryAssigner.check(partition, registration);
        } catch (RuntimeException e) {
            // One partition's storage failure must not stop the others (or the metadata thread).
            LOG.error("Broker {} could not become {} of {}", brokerId, lead ? "leader" : "follower", tp, e);
        }
    }

    private static void notifyListener(Runnable call, TopicPartition tp) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.error("leadership listener failed for {}", tp, e);
        }
    }

    private Partition createPartition(TopicPartition tp, UUID topicId) {
        Optional<Log> existing = logDirs.log(tp);
        if (existing.isPresent()) {
            Optional<UUID> recorded = PartitionMetadataFile.read(existing.get().dir());
            if (recorded.isPresent() && !recorded.get().equals(topicId)) {
                LOG.info("Deleting log {} of an earlier topic {} (id {}), now topic id {}", existing.get().dir(),
                        tp.topic(), recorded.get(), topicId);
                logDirs.delete(tp);
                checkpointedHighWatermarks.remove(tp);
            }
        }
        Log log = logDirs.getOrCreate(tp, mover.wishedDirectory(tp));
        TopicLogSettings settings = topicConfigs.topicSettings(tp.topic());
        log.updateConfig(topicConfigs.logConfig(tp.topic()));
        if (PartitionMetadataFile.read(log.dir()).isEmpty()) {
            // An empty log holds nothing that could be taken for another topic's data, and a new topic creates its
            // replicas one after the other on this thread (50 for __consumer_offsets, on a group's first lookup):
            // its file goes without fsyncs, which a power failure may undo (the next creation writes it again).
            PartitionMetadataFile.write(log.dir(), topicId, log.logEndOffset() > 0);
        }
        Partition partition = new Partition(tp, topicId, brokerId, log, checkpointedHighWatermarks.getOrDefault(tp, 0L));
        partition.setMinIsr(MinIsr.of(settings.minInsyncReplicas(), image));
        partitions.put(tp, partition);
        mover.onHosted(partition);
        return partition;
    }

    /** Stops hosting the partition of {@code topicId} and deletes its log. */
    private void removePartition(TopicPartition tp, UUID topicId) {
        logDirFailures.forget(tp, topicId);
        Partition partition = partitions.get(tp);
        if (partition != null && !partition.topicId().equals(topicId)) {
            return; // a newer topic of the same name lives here now
        }
        mover.cancel(tp);
        try {
            ReplicaFetcherManager currentFetchers = fetchers;
            if (currentFetchers != null) {
                currentFetchers.removePartitions(Set.of(tp));
            }
            if (partition != null) {
                partitions.remove(tp, partition);
                if (partition.isLeader()) {
                    for (PartitionLeadershipListener listener : leadershipListeners) {
                        notifyListener(() -> listener.onResign(tp), tp);
                    }
                }
                completeWaitingOn(tp);
            }
            Optional<Log> log = logDirs.log(tp);
            if (log.isPresent()) {
                Optional<UUID> recorded = PartitionMetadataFile.read(log.get().dir());
                if (recorded.isEmpty() || recorded.get().equals(topicId)) {
                    logDirs.delete(tp);
                    LOG.info("Broker {} deleted the log of {}", brokerId, tp);
                }
            }
            checkpointedHighWatermarks.remove(tp);
        } catch (RuntimeException e) {
            LOG.error("Broker {} could not delete the log of {}", brokerId, tp, e);
        }
    }

    /**
     * Deletes the logs this broker holds but no longer hosts (their topic was deleted, or deleted and recreated, while
     * the broker was down, or the partition's replicas no longer include it) once this replica manager has applied the
     * metadata up to {@code completeAtOffset}: now if it has, else at the publish that gets there. Pass an offset at
     * which the broker's metadata is known to be complete, e.g. the one it reported when the controller first unfenced
     * it; before that a missing topic may only be one the metadata has not caught up with, and deleting its log would
     * lose data.
     */
    public void deleteStrayLogsOnceAt(long completeAtOffset) {
        synchronized (stateLock) {
            if (image.offset() >= completeAtOffset) {
                deleteStrayLogs();
            } else {
                strayCheckOffset = completeAtOffset;
            }
        }
    }

    /** Deletes the stray logs against the current image; see {@link #deleteStrayLogsOnceAt}. */
    List<TopicPartition> deleteStrayLogs() {
        synchronized (stateLock) {
            strayCheckOffset = -1;
            if (closed || image == MetadataImage.EMPTY) {
                return List.of();
            }
            return strayLogs.delete(image, partitions::containsKey);
        }
    }

    // ---- log directory failures ---------------------------------------------------------------------

    /** The replica manager's part in taking a failed log directory offline. */
    private final class FailureHost implements LogDirFailures.Host {
        @Override
        public Object stateLock() {
            return stateLock;
        }

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public Collection<Partition> partitions() {
            return partitions.values();
        }

        @Override
        public void stopServing(Partition partition) {
            TopicPartition tp = partition.topicPartition();
            ReplicaFetcherManager currentFetchers = fetchers;
            if (currentFetchers != null) {
                currentFetchers.removePartitions(Set.of(tp));
            }
            partitions.remove(tp);
            if (partition.isLeader()) {
                for (PartitionLeadershipListener listener : leadershipListeners) {
                    notifyListener(() -> listener.onResign(tp), tp);
                }
            }
        }

        @Override
        public void completeWaitingOn(TopicPartition tp) {
            ReplicaManager.this.completeWaitingOn(tp);
        }

        @Override
        public void checkpointHighWatermarks() {
            ReplicaManager.this.checkpointHighWatermarks();
        }
    }

    /** The ids of this broker's online log directories (KIP-858), in log.dirs order. */
    public List<UUID> onlineLogDirIds() {
        return logDirs.onlineDirectoryIds();
    }

    /** The offline log directories, by path, with their ids. */
    public Map<Path, UUID> offlineLogDirs() {
        return logDirs.offlineDirectories();
    }

    /**
     * What this broker's heartbeat tells the controller about its offline log directories: each one, with the
     * partitions it held that the metadata does not yet record there (none, once the controller acted).
     */
    public List<OfflineLogDir> offlineLogDirReports() {
        return logDirFailures.reports(image);
    }

    /** Partitions this broker should host that are in offline log directories. */
    public Set<TopicPartition> offlinePartitions() {
        return logDirFailures.offlinePartitions();
    }

    // ---- produce -----------------------------------------------------------------------------------

    /**
     * Appends each partition's batches as leader. acks 0 and 1 answer once written; acks=all (-1) answers
     * when the high watermark passes every written batch, or at {@code timeoutMs} with REQUEST_TIMED_OUT.
     * Each partition succeeds or fails on its own. Never fails as a whole.
     *
     * @param internalTopicsAllowed true for coordinators appending to their internal topics
     */
    public CompletableFuture<Map<TopicPartition, PartitionProduceResult>> appendRecords(
            long timeoutMs, short requiredAcks, boolean internalTopicsAllowed, Map<TopicPartition, ByteBuffer> entries) {
        return leaderAppends.appendProduce(timeoutMs, requiredAcks, internalTopicsAllowed, entries);
    }

    /**
     * The partition side of ending a transaction (KIP-98), for the transaction coordinator, in-process or through
     * WriteTxnMarkers: appends the marker to each of its partitions this broker leads and answers, per partition,
     * once the high watermark has passed it (acks=all), or with the partition's error: NOT_LEADER_OR_FOLLOWER,
     * UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, INVALID_PRODUCER_EPOCH (an older epoch than the producer's),
     * TRANSACTION_COORDINATOR_FENCED (an older coordinator than the last marker's), REQUEST_TIMED_OUT after
     * {@code timeoutMs}, or INVALID_REQUEST for a marker without a producer id or epoch. Writing a marker again
     * after a retry is harmless: it ends no transaction twice.
     */
    public CompletableFuture<Map<TopicPartition, Errors>> writeTxnMarkers(TxnMarker marker, long timeoutMs) {
        return leaderAppends.writeTxnMarkers(marker, timeoutMs, markerListeners);
    }

    // ---- fetch -------------------------------------------------------------------------------------

    /**
     * Reads the partitions in order, sharing {@code maxBytes} among them (the first non-empty partition's
     * first batch is sent whole, KIP-74). Answers at once when there is {@code minBytes} of data, an error,
     * or nothing to wait for; otherwise when enough data arrives or {@code maxWaitMs} passes. A follower's
     * fetch offsets count as its log end offsets for the high watermark, unless answered with an error or a
     * diverging epoch.
     */
    public CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> fetchMessages(
            FetchParams params, LinkedHashMap<TopicPartition, FetchPartitionRequest> requests) {
        if (params.isFromFollower() && followerFetches.isStaleIncarnation(params)) {
            LinkedHashMap<TopicPartition, PartitionRead> stale = new LinkedHashMap<>();
            requests.keySet().forEach(tp -> stale.put(tp, PartitionRead.failed(Errors.STALE_BROKER_EPOCH)));
            return CompletableFuture.completedFuture(stale);
        }
        LinkedHashMap<TopicPartition, PartitionRead> results = readFromLocalLog(params, requests);
        if (params.isFromFollower()) {
            followerFetches.recordPositions(params.replicaId(), params.replicaEpoch(), requests, results);
        }
        long bytes = 0;
        boolean answerNow = params.maxWaitMs() <= 0 || requests.isEmpty();
        for (PartitionRead read : results.values()) {
            bytes += read.sizeBytes();
            if (read.error() != Errors.NONE || read.divergingEpoch().isPresent()) {
                answerNow = true;
            }
        }
        if (answerNow || bytes >= params.minBytes()) {
            return CompletableFuture.completedFuture(results);
        }
        CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> answer = new CompletableFuture<>();
        fetchPurgatory.tryCompleteElseWatch(new DelayedFetch(params, requests, this, answer), requests.keySet());
        return answer;
    }

    /** Reads every requested partition once, without waiting (a throttled follower's reads come back empty). */
    public LinkedHashMap<TopicPartition, PartitionRead> readFromLocalLog(
            FetchParams params, LinkedHashMap<TopicPartition, FetchPartitionRequest> requests) {
        return localReads.read(params, requests);
    }

    /** Whether the leader's replication throttle holds back a follower's read of the partition now (KIP-73). */
    public boolean isLeaderThrottled(FetchParams params, Partition partition) {
        return localReads.isThrottled(params, partition);
    }

    /** The leader's, follower's and log directory moves' replication throttles, as the metadata sets them. */
    public ReplicationThrottles throttles() {
        return throttles;
    }

    // ---- other partition operations ----------------------------------------------------------------

    /**
     * DeleteRecords on one partition this broker leads (-1 = up to the high watermark).
     *
     * @return the new log start offset
     * @throws ReplicaException with the partition's error
     */
    public long deleteRecords(TopicPartition tp, long offset) {
        long lowWatermark = partitionOrError(tp).deleteRecordsBefore(offset);
        // Long polls below the new log start must now answer OFFSET_OUT_OF_RANGE.
        fetchPurgatory.checkAndComplete(tp);
        return lowWatermark;
    }

    /** Re-checks waiting produces and fetches on {@code tp}: its high watermark, data or role changed. */
    private void completeWaitingOn(TopicPartition tp) {
        producePurgatory.checkAndComplete(tp);
        fetchPurgatory.checkAndComplete(tp);
    }

    /** Fetches waiting in the purgatory for data (long polls), counted once per partition they watch. */
    public int delayedFetchCount() {
        return fetchPurgatory.watched();
    }

    /** acks=all produces waiting for replication, counted once per partition they watch. */
    public int delayedProduceCount() {
        return producePurgatory.watched();
    }

    /** Writes every directory's high watermark checkpoint. */
    public void checkpointHighWatermarks() {
        Map<TopicPartition, Long> highWatermarks = new HashMap<>(checkpointedHighWatermarks);
        for (Partition partition : partitions.values()) {
            highWatermarks.put(partition.topicPartition(), partition.highWatermark());
        }
        logDirs.writeHighWatermarks(highWatermarks);
    }

    /** Like {@link #close()}, without checkpoints or clean-shutdown markers: the next start recovers the logs. */
    public void closeAsCrash() {
        logDirs.leaveForRecovery();
        close();
    }

    /**
     * Answers every waiting request, stops maintenance, checkpoints the high watermarks and closes the log
     * directories (flushing logs and writing the clean-shutdown markers). Call after the wire server stopped.
     */
    @Override
    public void close() {
        synchronized (stateLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        ReplicaFetcherManager currentFetchers = fetchers;
        if (currentFetchers != null) {
            currentFetchers.close();
        }
        if (isrProposals != null) {
            isrProposals.close();
        }
        maintenance.close();
        mover.close();
        directoryAssigner.close();
        logDirFailures.close();
        producePurgatory.completeAll();
        fetchPurgatory.completeAll();
        timer.stop();
        try {
            checkpointHighWatermarks();
        } catch (RuntimeException e) {
            LOG.error("Broker {} could not checkpoint high watermarks at shutdown", brokerId, e);
        }
        logDirs.close();
        LOG.info("Broker {} closed its {} partitions", brokerId, partitions.size());
        partitions.clear();
    }
}
