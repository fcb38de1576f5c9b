package io.kraft.metadata.controller;

import io.kraft.config.TopicConfigResolver;
import io.kraft.config.TopicConfigs;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.authorizer.AclFilter;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataChangeListener;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's managers wired together over one {@link SpeculativeMetadata}: requests that span managers (a
 * fenced broker's leaderships move, a topic's configs come and go with it), the records this controller generates
 * entering the view ({@link #replayBatch}) and the committed image advancing under it ({@link #committed}). The
 * managers read entities from the view and keep only indexes, fed by the entity changes the view's delta reports.
 * Not thread-safe: the controller's event loop owns it.
 */
public final class ControlManagers {
    private static final Logger LOG = LoggerFactory.getLogger(ControlManagers.class);
    private final SpeculativeMetadata metadata;
    private final ClusterControlManager cluster;
    private final ReplicationControlManager replication;
    private final DirectoryAssignments directoryAssignments;
    private final ConfigurationControlManager configs;
    private final ProducerIdControlManager producerIds;
    private final FeatureControlManager features;
    private final TransactionControlManager transactions;
    private final LeaderElectionControlManager elections;
    private final ReassignmentControlManager reassignments;
    private final AclControlManager acls;
    private final ScramControlManager scram;
    private final ClientQuotaControlManager clientQuotas = new ClientQuotaControlManager();
    private final Indexes indexes = new Indexes();

    /** Routes the view's entity changes to the managers that index them. */
    private final class Indexes implements MetadataChangeListener {
        @Override
        public void brokerChanged(BrokerRegistration before, BrokerRegistration after, long offset) {
            cluster.brokerChanged(before, after, offset);
        }

        @Override
        public void topicCreated(UUID topicId, String name) {
            replication.topicCreated(topicId, name);
        }

        @Override
        public void topicRemoved(UUID topicId, String name) {
            replication.topicRemoved(topicId, name);
        }

        @Override
        public void partitionChanged(TopicIdPartition partition, PartitionRegistration before,
                                     PartitionRegistration after) {
            replication.partitionChanged(partition, before, after);
            elections.partitionChanged(partition, before, after);
        }

        @Override
        public void transactionChanged(TransactionMetadata before, TransactionMetadata after) {
            transactions.transactionChanged(before, after);
        }

        @Override
        public void aclChanged(UUID id, StandardAcl before, StandardAcl after) {
            acls.aclChanged(id, before, after);
        }
    }

    /**
     * Managers over an empty cluster.
     *
     * @param topicConfigs      validates topic config overrides
     * @param supportedFeatures the feature levels this controller supports
     * @param random            topic ids and placement tie-breaks; seed it for reproducible tests
     */
    public ControlManagers(ControllerSettings settings, TopicConfigResolver topicConfigs,
                           Map<String, SupportedRange> supportedFeatures, Random random) {
        this(MetadataImage.EMPTY, settings, topicConfigs, supportedFeatures, random,
                SpeculativeMetadata.DEFAULT_REBUILD_SLACK_RECORDS);
    }

    ControlManagers(MetadataImage committed, ControllerSettings settings, TopicConfigResolver topicConfigs,
                    Map<String, SupportedRange> supportedFeatures, Random random, int rebuildSlackRecords) {
        this(committed, settings, TransactionSettings.DEFAULTS, topicConfigs, supportedFeatures, random,
                rebuildSlackRecords);
    }

    ControlManagers(MetadataImage committed, ControllerSettings settings, TransactionSettings transactionSettings,
                    TopicConfigResolver topicConfigs, Map<String, SupportedRange> supportedFeatures, Random random,
                    int rebuildSlackRecords) {
        this.metadata = new SpeculativeMetadata(committed, indexes, rebuildSlackRecords);
        this.cluster = new ClusterControlManager(settings, metadata);
        this.replication = new ReplicationControlManager(settings, metadata, cluster, random);
        this.directoryAssignments = new DirectoryAssignments(metadata, cluster);
        this.configs = new ConfigurationControlManager(topicConfigs, metadata);
        this.producerIds = new ProducerIdControlManager(metadata, cluster);
        this.features = new FeatureControlManager(supportedFeatures, metadata);
        this.transactions = new TransactionControlManager(transactionSettings, metadata);
        this.elections = new LeaderElectionControlManager(metadata, cluster, replication.uncleanElections(),
                replication.elrRules());
        this.reassignments = new ReassignmentControlManager(metadata, cluster, replication.elrRules());
        this.acls = new AclControlManager(random);
        this.scram = new ScramControlManager(metadata);
        cluster.index(committed);
        replication.index(committed);
        committed.topics().topicsById().values().forEach(topic -> topic.partitions().forEach((partitionId, partition)
                -> elections.partitionChanged(new TopicIdPartition(topic.id(), partitionId), null, partition)));
        transactions.index(committed);
        acls.index(committed);
    }

    /** Managers over a committed image (a new active controller starts here, once every earlier record applied). */
    public static ControlManagers fromImage(MetadataImage image, ControllerSettings settings,
                                            TopicConfigResolver topicConfigs,
                                            Map<String, SupportedRange> supportedFeatures, Random random) {
        return fromImage(image, settings, TransactionSettings.DEFAULTS, topicConfigs, supportedFeatures, random);
    }

    /** Managers over a committed image, with the transaction coordinator's settings. */
    public static ControlManagers fromImage(MetadataImage image, ControllerSettings settings,
                                            TransactionSettings transactionSettings, TopicConfigResolver topicConfigs,
                                            Map<String, SupportedRange> supportedFeatures, Random random) {
        return new ControlManagers(image, settings, transactionSettings, topicConfigs, supportedFeatures, random,
                SpeculativeMetadata.DEFAULT_REBUILD_SLACK_RECORDS);
    }

    /**
     * Registers a broker incarnation. A new incarnation replacing one that was still unfenced (its session
     * expired but the fencing timer has not fired yet) starts fenced, so the old one's leaderships move now. One that
     * follows an unclean shutdown also leaves every ELR (KIP-966): it may have lost records the others still have.
     */
    public ControllerResult<Long> registerBroker(BrokerRegistrationRequest request, long nowMs) {
        BrokerRegistration previous = cluster.registration(request.brokerId());
        ControllerResult<Long> result = cluster.registerBroker(request, nowMs);
        if (result.records().isEmpty() || previous == null) {
            return result;
        }
        boolean unclean = request.followsUncleanShutdownOf(previous.epoch());
        if (previous.fenced() && !unclean) {
            return result;
        }
        List<MetadataRecord> records = new ArrayList<>(result.records());
        Set<Integer> lostData = unclean ? Set.of(request.brokerId()) : Set.of();
        if (!previous.fenced()) {
            records.addAll(replication.handleBrokersLeaving(Set.of(request.brokerId()), lostData));
        }
        if (unclean) {
            List<MetadataRecord> leftElr = replication.handleUncleanShutdown(request.brokerId());
            LOG.info("Broker {} registered after an unclean shutdown of epoch {} (it names epoch {}): it leaves the"
                    + " eligible leader replicas of {} partitions", request.brokerId(), previous.epoch(),
                    request.previousBrokerEpoch(), leftElr.size());
            records.addAll(leftElr);
        }
        return ControllerResult.of(records, result.response());
    }

    /**
     * A heartbeat, with the leader elections its fencing, unfencing or controlled shutdown needs, and those its failed
     * log directories need (KIP-858).
     */
    public ControllerResult<BrokerHeartbeatReply> heartbeat(BrokerHeartbeatRequest request, long nowMs) {
        ControllerResult<BrokerHeartbeatReply> result =
                cluster.heartbeat(request, nowMs, replication.leadsPartitions(request.brokerId()));
        if (!result.isSuccess()) {
            return result;
        }
        if (!request.offlineLogDirs().isEmpty()) {
            Set<UUID> failed = new HashSet<>();
            request.offlineLogDirs().forEach(dir -> failed.add(dir.directoryId()));
            List<MetadataRecord> offline = new ArrayList<>(
                    replication.handleLogDirsOffline(request.brokerId(), request.offlineLogDirs()));
            cluster.logDirsOffline(request.brokerId(), failed).ifPresent(offline::add);
            if (!offline.isEmpty()) {
                // Alone: elections for fencing or a shutdown would be computed from partitions these records change.
                // The broker's state stays as it is; its next heartbeat (the report then adds nothing) changes it.
                BrokerHeartbeatReply unchanged = new BrokerHeartbeatReply(result.response().isCaughtUp(),
                        cluster.registration(request.brokerId()).fenced(), false);
                return ControllerResult.of(offline, unchanged);
            }
        }
        if (result.records().isEmpty()) {
            return result;
        }
        List<MetadataRecord> records = new ArrayList<>(result.records());
        for (MetadataRecord record : result.records()) {
            switch (record.getRecordCase()) {
                case UNFENCE_BROKER -> records.addAll(replication.handleBrokerUnfenced(request.brokerId()));
                case FENCE_BROKER, BROKER_REGISTRATION_CHANGE ->
                        records.addAll(replication.handleBrokersLeaving(Set.of(request.brokerId())));
                default -> throw new IllegalStateException("Unexpected heartbeat record " + record.getRecordCase());
            }
        }
        return ControllerResult.of(records, result.response());
    }

    /**
     * UnregisterBroker: the broker leaves every ISR and ELR (its leaderships move, as on fencing) in the batch that
     * removes its registration, so no partition keeps a replica set member that can never come back as it was.
     */
    public ControllerResult<Void> unregisterBroker(int brokerId) {
        ControllerResult<Void> result = cluster.unregisterBroker(brokerId);
        if (!result.isSuccess()) {
            return result;
        }
        List<MetadataRecord> records = new ArrayList<>();
        records.addAll(replication.handleBrokersLeaving(Set.of(brokerId), Set.of(brokerId)));
        records.addAll(replication.handleUncleanShutdown(brokerId));
        LOG.info("Unregistering broker {}: {} partition changes move its ISR and ELR memberships", brokerId,
                records.size());
        records.addAll(result.records());
        return ControllerResult.of(records, null);
    }

    public void connectionClosed(int brokerId, long nowMs) {
        cluster.connectionClosed(brokerId, nowMs);
    }

    /** See {@link ClusterControlManager#connectionRefused}. */
    public boolean connectionRefused(int brokerId, long nowMs) {
        return cluster.connectionRefused(brokerId, nowMs);
    }

    /** Fences brokers whose session or connection-loss grace ran out, moving their leaderships; responds with their ids. */
    public ControllerResult<List<Integer>> fenceStaleBrokers(long nowMs) {
        ControllerResult<List<Integer>> result = cluster.fenceStaleBrokers(nowMs);
        if (result.response().isEmpty()) {
            return result;
        }
        List<MetadataRecord> records = new ArrayList<>(result.records());
        records.addAll(replication.handleBrokersLeaving(Set.copyOf(result.response())));
        return ControllerResult.of(records, result.response());
    }

    /** The earliest time {@link #fenceStaleBrokers} has work to do, for the controller's timer. */
    public long nextFencingDeadlineMs(long nowMs) {
        return cluster.nextFencingDeadlineMs(nowMs);
    }

    /** A topic with its partitions and config overrides. */
    public ControllerResult<CreateTopicResult> createTopic(CreateTopicRequest request) {
        ControllerResult<CreateTopicResult> result = replication.createTopic(request);
        if (!result.isSuccess()) {
            return result;
        }
        ApiError configError = configs.validateTopicConfigs(request.configs());
        if (!configError.isSuccess()) {
            return ControllerResult.failed(configError.error(), configError.message());
        }
        List<MetadataRecord> records = new ArrayList<>(result.records());
        records.addAll(configs.topicConfigRecords(request.name(), request.configs()));
        return ControllerResult.of(records, result.response());
    }

    /** Removes a topic and its config overrides. */
    public ControllerResult<UUID> deleteTopic(String topicName) {
        ControllerResult<UUID> result = replication.deleteTopic(topicName);
        if (!result.isSuccess()) {
            return result;
        }
        List<MetadataRecord> records = new ArrayList<>(result.records());
        records.addAll(configs.deleteAllRecords(ConfigResource.topic(topicName)));
        return ControllerResult.of(records, result.response());
    }

    public ControllerResult<Void> createPartitions(String topicName, int totalCount, List<List<Integer>> newAssignments) {
        return replication.createPartitions(topicName, totalCount, newAssignments);
    }

    /**
     * A leader's ISR change; when it brings the last adding replica of a reassignment into the ISR, the reassignment
     * completes in the same batch. The answer is the partition after both, unless the completion moved leadership
     * away from the asking leader: then after the ISR change alone, the state that leader acted in.
     */
    public ControllerResult<PartitionRegistration> alterPartition(AlterPartitionRequest request) {
        ControllerResult<PartitionRegistration> result = replication.alterPartition(request);
        if (!result.isSuccess() || result.records().isEmpty()) {
            return result;
        }
        Optional<MetadataRecord> completion = reassignments.completion(request.topicId(), request.partitionId(),
                result.response());
        if (completion.isEmpty()) {
            return result;
        }
        List<MetadataRecord> records = new ArrayList<>(result.records());
        records.add(completion.get());
        PartitionRegistration after = result.response().merge(completion.get().getPartitionChange());
        return ControllerResult.of(records, after.leader() == result.response().leader() ? after : result.response());
    }

    /** AssignReplicasToDirs (KIP-858): where a broker's replicas now live, per partition NONE or an error. */
    public ControllerResult<Map<TopicIdPartition, Errors>> assignReplicasToDirs(AssignReplicasToDirsRequest request) {
        return directoryAssignments.assign(request);
    }

    /** ElectLeaders: preferred or unclean elections of the named partitions, or of all that need one. */
    public ControllerResult<Map<String, Map<Integer, ApiError>>> electLeaders(
            ElectionType type, Optional<Map<String, Set<Integer>>> partitions) {
        return elections.electLeaders(type, partitions);
    }

    /** One pass of the automatic move of leadership back to preferred replicas; answers the partitions moved. */
    public ControllerResult<List<TopicIdPartition>> balanceLeaders(int imbalancePerBrokerPercent) {
        return elections.balance(imbalancePerBrokerPercent);
    }

    /** AlterPartitionReassignments: a target per partition, or empty to cancel its reassignment. */
    public ControllerResult<Map<String, Map<Integer, ApiError>>> alterPartitionReassignments(
            Map<String, Map<Integer, Optional<List<Integer>>>> targets, boolean allowReplicationFactorChange) {
        return reassignments.alter(targets, allowReplicationFactorChange);
    }

    public ControllerResult<Void> incrementalAlterConfigs(ConfigResource resource, Map<String, Optional<String>> changes) {
        boolean exists = resource.type() != ConfigResource.Type.TOPIC || replication.topicExists(resource.name());
        ControllerResult<Void> result = configs.incrementalAlterConfigs(resource, changes, exists);
        boolean unclean = changes.containsKey(ControllerSettings.UNCLEAN_LEADER_ELECTION_ENABLE);
        boolean minIsr = changes.containsKey(TopicConfigs.MIN_INSYNC_REPLICAS);
        if (!result.isSuccess() || !unclean && !minIsr) {
            return result;
        }
        List<MetadataRecord> records = new ArrayList<>();
        if (minIsr) {
            // ELRs the new min.insync.replicas no longer needs are cleared in the same batch (KIP-966), ahead of the
            // config records, so that no offset shows an ISR at min ISR with an ELR.
            records.addAll(replication.handleMinIsrConfig(resource, changes.get(TopicConfigs.MIN_INSYNC_REPLICAS)));
        }
        records.addAll(result.records());
        if (unclean) {
            // Leaderless partitions the change now lets elect from outside the ISR do so in the same batch.
            records.addAll(replication.handleUncleanElectionConfig(resource,
                    changes.get(ControllerSettings.UNCLEAN_LEADER_ELECTION_ENABLE)));
        }
        return ControllerResult.of(records, result.response());
    }

    public ControllerResult<ProducerIdBlock> allocateProducerIds(int brokerId, long brokerEpoch) {
        return producerIds.allocateBlock(brokerId, brokerEpoch);
    }

    /** CreateAcls: one result per ACL (INVALID_REQUEST with the reason, or NONE: created or present already). */
    public ControllerResult<List<ApiError>> createAcls(List<StandardAcl> newAcls) {
        return acls.createAcls(newAcls);
    }

    /** AlterClientQuotas: one result per entry (INVALID_REQUEST with the reason, or NONE). */
    public ControllerResult<List<ApiError>> alterClientQuotas(
            List<io.kraft.metadata.quota.ClientQuotaAlteration> entries, boolean validateOnly) {
        return clientQuotas.alterClientQuotas(entries, validateOnly);
    }

    /** DeleteAcls: per filter, the ACLs it deleted. */
    public ControllerResult<List<AclDeleteResult>> deleteAcls(List<AclFilter> filters) {
        return acls.deleteAcls(filters);
    }

    /** AlterUserScramCredentials: each user's outcome, and the records of those that succeed. */
    public ControllerResult<Map<String, ApiError>> alterUserScramCredentials(List<ScramAlteration> alterations) {
        return scram.alter(alterations);
    }

    public TransactionControlManager transactions() {
        return transactions;
    }

    public ControllerResult<Void> updateFeature(String name, int level) {
        return features.updateFeature(name, level);
    }

    /**
     * Adds records this controller generated, appended at consecutive offsets from {@code firstOffset} in
     * {@code epoch}, to the view: the next request sees them before they commit.
     *
     * @throws io.kraft.metadata.InvalidMetadataRecordException if a record does not apply (a bug): the managers are
     *         then unusable and must be dropped
     */
    public void replayBatch(List<MetadataRecord> records, long firstOffset, int epoch) {
        metadata.replay(records, firstOffset, epoch);
    }

    /**
     * The committed image advanced to {@code image}, holding only records this controller generated.
     *
     * @throws IllegalStateException if it holds records the managers never saw: they must be dropped
     */
    public void committed(MetadataImage image) {
        metadata.commit(image);
    }

    /**
     * Where a committed delta that this controller did not generate reports its entity changes, so that the indexes
     * of a standby follow the log change by change (then {@link #followCommitted} the image it produced).
     */
    public MetadataChangeListener committedChanges() {
        return indexes;
    }

    /**
     * The committed image advanced to {@code image} by records this controller did not generate, whose changes the
     * indexes heard through {@link #committedChanges()}: a standby keeps its managers current at the cost of each
     * delta, so that becoming active needs no rebuild whatever the image's size.
     *
     * @throws IllegalStateException if the managers hold uncommitted records of their own
     */
    public void followCommitted(MetadataImage image) {
        metadata.follow(image);
    }

    /**
     * This controller starts serving at {@code nowMs}: broker sessions start afresh (a session a previous term left
     * behind would otherwise look expired at once), each broker due to be heard from within the takeover grace.
     */
    public void activate(long nowMs) {
        cluster.resetSessions(nowMs);
    }

    /** The view the managers read: committed image plus this controller's uncommitted records. */
    public SpeculativeMetadata metadata() {
        return metadata;
    }

    /** The managers' view as an image (a copy, for comparison and inspection). */
    public MetadataImage image(MetadataProvenance provenance) {
        return metadata.image(provenance);
    }

    public ClusterControlManager cluster() {
        return cluster;
    }

    public ReplicationControlManager replication() {
        return replication;
    }

    public ConfigurationControlManager configs() {
        return configs;
    }

    public ProducerIdControlManager producerIds() {
        return producerIds;
    }

    public FeatureControlManager features() {
        return features;
    }
}
