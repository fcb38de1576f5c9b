package io.kraft.metadata.controller;

import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.loader.MetadataStorage;
import io.kraft.metadata.loop.EventLoop;
import io.kraft.metadata.loop.Time;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What a controller is built from; the loops, clock and random seed default to real ones. */
public final class QuorumControllerBuilder {
    final int nodeId;
    final ControllerSettings settings;
    TransactionSettings transactionSettings = TransactionSettings.DEFAULTS;
    LeaderBalanceSettings leaderBalance = LeaderBalanceSettings.DEFAULTS;
    TopicConfigResolver topicConfigs;
    Map<String, SupportedRange> supportedFeatures = Map.of();
    long randomSeed;
    Time time = Time.SYSTEM;
    EventLoop eventLoop;
    EventLoop publisherLoop;
    java.util.concurrent.Executor standbyBuilder;
    MetadataStorage storage;
    SnapshotPolicy snapshotPolicy = SnapshotPolicy.from(Map.of());
    FaultHandler faultHandler;
    BrokerProbe brokerProbe = BrokerProbe.NONE;
    List<MetadataRecord> bootstrapRecords = List.of();

    QuorumControllerBuilder(int nodeId, ControllerSettings settings) {
        this.nodeId = nodeId;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.randomSeed = nodeId;
    }

    /** Validates topic config overrides (required). */
    public QuorumControllerBuilder topicConfigs(TopicConfigResolver resolver) {
        this.topicConfigs = resolver;
        return this;
    }

    /** The transaction coordinator's settings (default: Kafka's). */
    public QuorumControllerBuilder transactionSettings(TransactionSettings transactions) {
        this.transactionSettings = Objects.requireNonNull(transactions, "transactionSettings");
        return this;
    }

    /** How leadership moves back to preferred replicas by itself (default: Kafka's). */
    public QuorumControllerBuilder leaderBalance(LeaderBalanceSettings settings) {
        this.leaderBalance = Objects.requireNonNull(settings, "leaderBalance");
        return this;
    }

    /** The feature levels this controller supports. */
    public QuorumControllerBuilder supportedFeatures(Map<String, SupportedRange> features) {
        this.supportedFeatures = features;
        return this;
    }

    /** Seeds topic ids and placement tie-breaks (default: the node id). */
    public QuorumControllerBuilder randomSeed(long seed) {
        this.randomSeed = seed;
        return this;
    }

    public QuorumControllerBuilder time(Time clock) {
        this.time = Objects.requireNonNull(clock, "time");
        return this;
    }

    /** The controller's own loop (default: a thread {@code quorum-controller-<id>}). */
    public QuorumControllerBuilder eventLoop(EventLoop controllerLoop) {
        this.eventLoop = controllerLoop;
        return this;
    }

    /**
     * Where a standby's managers are built after a snapshot load, off the controller's loop (default: a thread
     * {@code standby-indexes-<id>}; with an {@link #eventLoop} given, in line, so a simulation stays deterministic).
     */
    public QuorumControllerBuilder standbyBuilder(java.util.concurrent.Executor executor) {
        this.standbyBuilder = executor;
        return this;
    }

    /** The loop publishers run on (default: a thread {@code metadata-publisher-<id>}). */
    public QuorumControllerBuilder publisherLoop(EventLoop loopForPublishers) {
        this.publisherLoop = loopForPublishers;
        return this;
    }

    /** Where the committed state and its snapshots are kept (required). */
    public QuorumControllerBuilder storage(MetadataStorage metadataStorage) {
        this.storage = metadataStorage;
        return this;
    }

    public QuorumControllerBuilder snapshotPolicy(SnapshotPolicy policy) {
        this.snapshotPolicy = Objects.requireNonNull(policy, "snapshotPolicy");
        return this;
    }

    /** Hears faults: publishers that fail, committed records that do not apply (required). */
    /** What checks whether a broker that may be gone still listens (default: nothing). */
    public QuorumControllerBuilder brokerProbe(BrokerProbe probe) {
        this.brokerProbe = Objects.requireNonNull(probe, "brokerProbe");
        return this;
    }

    public QuorumControllerBuilder faultHandler(FaultHandler handler) {
        this.faultHandler = handler;
        return this;
    }

    /**
     * Records the first active controller of a new cluster appends before anything else ({@code kraft-cli format}'s
     * bootstrap metadata, e.g. the first SCRAM credential); ignored once the log holds any record.
     */
    public QuorumControllerBuilder bootstrapRecords(List<MetadataRecord> records) {
        this.bootstrapRecords = List.copyOf(records);
        return this;
    }

    public QuorumController build() {
        return new QuorumController(this);
    }
}
