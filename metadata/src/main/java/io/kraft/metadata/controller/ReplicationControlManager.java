package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.BrokerLiveness.UsableBroker;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.image.TopicsImage;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.IntPredicate;

/**
 * Topics and partitions: creation with replica placement, deletion, partition additions, leader
 * elections when brokers come and go or lose log directories, and ISR changes from leaders (AlterPartition). A replica
 * whose recorded log directory is not among its broker's online ones (KIP-858) is offline: it may neither lead nor
 * join the ISR, as if its broker were fenced, until the broker registers with that directory online again. Request
 * methods read
 * topics and partitions from the {@link SpeculativeMetadata} and only generate records. The manager keeps
 * only indexes the image does not have (ISR membership, leaderships, leaderless partitions, placement load,
 * names that collide), updated from the entity changes the view reports, which make broker changes cheap.
 */
public final class ReplicationControlManager {
    /**
     * Our limit on the partitions one request may create, so that one request cannot make a batch of
     * records too large to append or exhaust the controller's memory.
     */
    public static final int MAX_NEW_PARTITIONS_PER_REQUEST = 10_000;

    private final ControllerSettings settings;
    private final SpeculativeMetadata metadata;
    private final BrokerLiveness brokers;
    private final Random random;
    private final UncleanElections uncleanElections;
    private final ElrRules elrRules;
    private final Map<String, String> namesByCollisionKey = new HashMap<>();
    private final PartitionsByBroker isrMembership = new PartitionsByBroker();
    // ELR membership (KIP-966), so an unclean restart finds the partitions whose ELR it leaves.
    private final PartitionsByBroker elrMembership = new PartitionsByBroker();
    // Partitions with an ELR or last-known ELR, which a change of min.insync.replicas may clear.
    private final Set<TopicIdPartition> withElr = new HashSet<>();
    private final Map<Integer, Integer> leaderCounts = new HashMap<>();
    private final Map<Integer, Integer> replicaCounts = new HashMap<>();
    private final Map<Integer, Integer> preferredLeaderCounts = new HashMap<>();
    // Sorted so that elections run in a deterministic order.
    private final TreeSet<TopicIdPartition> leaderless = new TreeSet<>(
            (a, b) -> a.topicId().equals(b.topicId()) ? Integer.compare(a.partition(), b.partition())
                    : a.topicId().compareTo(b.topicId()));

    /** @param random source of topic ids and placement tie-breaks; seed it for reproducible tests */
    ReplicationControlManager(ControllerSettings settings, SpeculativeMetadata metadata, BrokerLiveness brokers,
                              Random random) {
        this.settings = settings;
        this.metadata = metadata;
        this.brokers = brokers;
        this.random = random;
        this.uncleanElections = new UncleanElections(settings, metadata);
        this.elrRules = new ElrRules(metadata);
    }

    /** The eligible leader replicas rule of each topic (shared with the other partition-changing managers). */
    ElrRules elrRules() {
        return elrRules;
    }

    /** Where unclean elections are decided, logged and counted (shared with operator-asked elections). */
    UncleanElections uncleanElections() {
        return uncleanElections;
    }

    /** Unclean leader elections this controller generated since it started (for metrics). */
    public long uncleanLeaderElections() {
        return uncleanElections.count();
    }

    /** Indexes the topics of the committed image this controller starts from. */
    void index(MetadataImage image) {
        for (TopicImage topic : image.topics().topicsById().values()) {
            topicCreated(topic.id(), topic.name());
            topic.partitions().forEach((partitionId, partition) ->
                    partitionChanged(new TopicIdPartition(topic.id(), partitionId), null, partition));
        }
    }

    void topicCreated(UUID topicId, String name) {
        namesByCollisionKey.put(TopicNames.collisionKey(name), name);
    }

    void topicRemoved(UUID topicId, String name) {
        namesByCollisionKey.remove(TopicNames.collisionKey(name));
    }

    void partitionChanged(TopicIdPartition id, PartitionRegistration before, PartitionRegistration after) {
        reindex(id, before, after);
    }

    /** Validates a topic creation and generates its topic and partition records (config records are not included). */
    public ControllerResult<CreateTopicResult> createTopic(CreateTopicRequest request) {
        String invalid = TopicNames.invalidReason(request.name());
        if (invalid != null) {
            return ControllerResult.failed(Errors.INVALID_TOPIC_EXCEPTION, invalid);
        }
        if (metadata.topicId(request.name()) != null) {
            return ControllerResult.failed(Errors.TOPIC_ALREADY_EXISTS, "Topic " + request.name() + " already exists");
        }
        String colliding = namesByCollisionKey.get(TopicNames.collisionKey(request.name()));
        if (colliding != null) {
            return ControllerResult.failed(Errors.INVALID_TOPIC_EXCEPTION, "Topic " + request.name()
                    + " collides with existing topic " + colliding + " ('.' and '_' are interchangeable in metric names)");
        }
        List<List<Integer>> assignments;
        if (!request.assignments().isEmpty()) {
            if (request.numPartitions() != -1 || request.replicationFactor() != -1) {
                return ControllerResult.failed(Errors.INVALID_REQUEST,
                        "Both a replica assignment and a partition count or replication factor were given");
            }
            if (request.assignments().size() > MAX_NEW_PARTITIONS_PER_REQUEST) {
                return ControllerResult.failed(Errors.INVALID_PARTITIONS, "An assignment of "
                        + request.assignments().size() + " partitions exceeds the limit of "
                        + MAX_NEW_PARTITIONS_PER_REQUEST + " per request");
            }
            List<List<Integer>> ordered = new ArrayList<>();
            for (int p = 0; p < request.assignments().size(); p++) {
                List<Integer> replicas = request.assignments().get(p);
                if (replicas == null) {
                    return ControllerResult.failed(Errors.INVALID_REPLICA_ASSIGNMENT,
                            "Partition ids of the assignment must be 0 to " + (request.assignments().size() - 1));
                }
                ordered.add(replicas);
            }
            ApiError error = validateAssignments(ordered, ordered.get(0).size());
            if (!error.isSuccess()) {
                return ControllerResult.failed(error.error(), error.message());
            }
            assignments = ordered;
        } else {
            int numPartitions = request.numPartitions() == -1 ? settings.defaultNumPartitions() : request.numPartitions();
            int replicationFactor = request.replicationFactor() == -1
                    ? settings.defaultReplicationFactor() : request.replicationFactor();
            if (numPartitions < 1 || numPartitions > MAX_NEW_PARTITIONS_PER_REQUEST) {
                return ControllerResult.failed(Errors.INVALID_PARTITIONS, "Number of partitions must be between 1 and "
                        + MAX_NEW_PARTITIONS_PER_REQUEST + ", not " + numPartitions);
            }
            ControllerResult<List<List<Integer>>> placed = place(numPartitions, replicationFactor);
            if (!placed.isSuccess()) {
                return placed.castFailure();
            }
            assignments = placed.response();
        }
        UUID topicId = newTopicId();
        List<MetadataRecord> records = new ArrayList<>(assignments.size() + 1);
        records.add(MetadataRecords.of(TopicRecord.newBuilder()
                .setName(request.name()).setTopicId(Uuids.toProto(topicId)).build()));
        for (int p = 0; p < assignments.size(); p++) {
            records.add(newPartition(assignments.get(p)).toRecord(topicId, p));
        }
        return ControllerResult.of(records, new CreateTopicResult(topicId, assignments.size(), assignments.get(0).size()));
    }

    /** Generates the records adding partitions to a topic, up to {@code totalCount} partitions. */
    public ControllerResult<Void> createPartitions(String topicName, int totalCount, List<List<Integer>> newAssignments) {
        UUID topicId = metadata.topicId(topicName);
        if (topicId == null) {
            return ControllerResult.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic " + topicName + " does not exist");
        }
        int current = metadata.partitionCount(topicId);
        if (totalCount <= current) {
            return ControllerResult.failed(Errors.INVALID_PARTITIONS, "Topic " + topicName + " has " + current
                    + " partitions; the new count " + totalCount + " must be larger");
        }
        if ((long) totalCount - current > MAX_NEW_PARTITIONS_PER_REQUEST) {
            return ControllerResult.failed(Errors.INVALID_PARTITIONS, "Adding " + (totalCount - current)
                    + " partitions exceeds the limit of " + MAX_NEW_PARTITIONS_PER_REQUEST + " per request");
        }
        PartitionRegistration first = metadata.partition(topicId, 0);
        if (first == null) {
            // Only a topic record without its partitions could get here: Raft committed part of a creation's batch.
            return ControllerResult.failed(Errors.INVALID_PARTITIONS, "Topic " + topicName
                    + " has no partition to take the replication factor of new ones from");
        }
        int replicationFactor = first.replicas().size();
        List<List<Integer>> assignments;
        if (!newAssignments.isEmpty()) {
            if (newAssignments.size() != totalCount - current) {
                return ControllerResult.failed(Errors.INVALID_REPLICA_ASSIGNMENT, "Expected assignments for "
                        + (totalCount - current) + " new partitions, got " + newAssignments.size());
            }
            ApiError error = validateAssignments(newAssignments, replicationFactor);
            if (!error.isSuccess()) {
                return ControllerResult.failed(error.error(), error.message());
            }
            assignments = newAssignments;
        } else {
            ControllerResult<List<List<Integer>>> placed = place(totalCount - current, replicationFactor);
            if (!placed.isSuccess()) {
                return placed.castFailure();
            }
            assignments = placed.response();
        }
        List<MetadataRecord> records = new ArrayList<>(assignments.size());
        for (int i = 0; i < assignments.size(); i++) {
            records.add(newPartition(assignments.get(i)).toRecord(topicId, current + i));
        }
        return ControllerResult.of(records, null);
    }

    /** Generates the record removing a topic and all its partitions. */
    public ControllerResult<UUID> deleteTopic(String topicName) {
        UUID topicId = metadata.topicId(topicName);
        if (topicId == null) {
            return ControllerResult.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic " + topicName + " does not exist");
        }
        return ControllerResult.of(List.of(MetadataRecords.of(RemoveTopicRecord.newBuilder()
                .setTopicId(Uuids.toProto(topicId)).build())), topicId);
    }

    /** Like {@link #deleteTopic(String)} for a topic named by id. */
    public ControllerResult<UUID> deleteTopic(UUID topicId) {
        String name = metadata.topicName(topicId);
        if (name == null) {
            return ControllerResult.failed(Errors.UNKNOWN_TOPIC_ID, "Topic id " + topicId + " does not exist");
        }
        return deleteTopic(name);
    }

    /**
     * Validates a leader's ISR change against the current leader and partition epochs and generates the
     * change; the response is the partition as it will be (the current one if nothing changes).
     */
    public ControllerResult<PartitionRegistration> alterPartition(AlterPartitionRequest request) {
        long brokerEpoch = brokers.brokerEpoch(request.brokerId());
        if (brokerEpoch < 0) {
            // Refused as such, not left to fail later: an unregistered id with epoch -1 would pass the epoch check.
            return ControllerResult.failed(Errors.BROKER_ID_NOT_REGISTERED, "Broker " + request.brokerId()
                    + " is not registered");
        }
        if (brokerEpoch != request.brokerEpoch()) {
            return ControllerResult.failed(Errors.STALE_BROKER_EPOCH, "Broker " + request.brokerId() + " sent epoch "
                    + request.brokerEpoch() + " but its registration has epoch " + brokerEpoch);
        }
        String topicName = metadata.topicName(request.topicId());
        if (topicName == null) {
            return ControllerResult.failed(Errors.UNKNOWN_TOPIC_ID, "Topic id " + request.topicId() + " does not exist");
        }
        PartitionRegistration partition = metadata.partition(request.topicId(), request.partitionId());
        if (partition == null) {
            return ControllerResult.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Partition " + request.partitionId()
                    + " of topic " + topicName + " does not exist");
        }
        String where = topicName + "-" + request.partitionId();
        if (request.leaderEpoch() < partition.leaderEpoch()) {
            return ControllerResult.failed(Errors.FENCED_LEADER_EPOCH, "Leader epoch " + request.leaderEpoch()
                    + " of " + where + " is older than the current " + partition.leaderEpoch());
        }
        if (request.leaderEpoch() > partition.leaderEpoch()) {
            return ControllerResult.failed(Errors.UNKNOWN_LEADER_EPOCH, "Leader epoch " + request.leaderEpoch()
                    + " of " + where + " is newer than the current " + partition.leaderEpoch());
        }
        if (request.brokerId() != partition.leader()) {
            return ControllerResult.failed(Errors.NOT_LEADER_OR_FOLLOWER, "Broker " + request.brokerId()
                    + " is not the leader of " + where + "; the leader is " + partition.leader());
        }
        if (request.partitionEpoch() != partition.partitionEpoch()) {
            return ControllerResult.failed(Errors.INVALID_UPDATE_VERSION, "Partition epoch " + request.partitionEpoch()
                    + " of " + where + " is not the current " + partition.partitionEpoch());
        }
        List<Integer> newIsr = request.newIsr();
        if (!newIsr.contains(partition.leader()) || new HashSet<>(newIsr).size() != newIsr.size()
                || !partition.replicas().containsAll(newIsr)) {
            return ControllerResult.failed(Errors.INVALID_REQUEST, "ISR " + newIsr + " of " + where
                    + " must be distinct replicas of " + partition.replicas() + " including the leader");
        }
        for (int i = 0; i < newIsr.size(); i++) {
            int member = newIsr.get(i);
            long staleEpoch = staleIncarnation(member, request.newIsrBrokerEpochs().get(i));
            if (!partition.isr().contains(member) && staleEpoch >= 0) {
                return ControllerResult.failed(Errors.INELIGIBLE_REPLICA, "Replica " + member + " of " + where
                        + " cannot join the ISR: the leader saw it fetch with broker epoch "
                        + request.newIsrBrokerEpochs().get(i) + ", but it registered again with epoch " + staleEpoch
                        + " (KIP-903)");
            }
            if (!partition.isr().contains(member) && !brokers.isUsable(member)) {
                return ControllerResult.failed(Errors.INELIGIBLE_REPLICA, "Replica " + member + " of " + where
                        + " cannot join the ISR: it is fenced, shutting down or not registered");
            }
            if (!partition.isr().contains(member) && !replicaOnline(partition, member)) {
                return ControllerResult.failed(Errors.INELIGIBLE_REPLICA, "Replica " + member + " of " + where
                        + " cannot join the ISR: its log directory " + partition.directoryOf(member).orElseThrow()
                        + " is offline");
            }
        }
        if (newIsr.equals(partition.isr())) {
            return ControllerResult.of(List.of(), partition);
        }
        PartitionChangeRecord.Builder builder = PartitionChangeRecord.newBuilder()
                .setTopicId(Uuids.toProto(request.topicId()))
                .setPartitionId(request.partitionId())
                .setIsr(BrokerIdList.newBuilder().addAllBrokerIds(newIsr));
        elrRules.forTopic(topicName).complete(partition, newIsr, partition.replicas(), false, builder);
        PartitionChangeRecord change = builder.build();
        return ControllerResult.of(List.of(MetadataRecords.of(change)), partition.merge(change));
    }

    /**
     * KIP-903: the broker's registered epoch when {@code fetchedEpoch} (the epoch the leader saw the replica fetch
     * with) is of an earlier incarnation, else -1. A restarted broker may have lost what its old incarnation had, so
     * the old one's fetches say nothing of it. An unknown epoch (-1) is not checked, as in Kafka.
     */
    private long staleIncarnation(int brokerId, long fetchedEpoch) {
        long registered = brokers.brokerEpoch(brokerId);
        if (fetchedEpoch == AlterPartitionRequest.UNKNOWN_BROKER_EPOCH || registered < 0 || registered == fetchedEpoch) {
            return -1;
        }
        return registered;
    }

    /**
     * Leader and ISR changes for brokers about to become unable to hold replicas (fenced or entering
     * controlled shutdown): they leave every ISR, and their leaderships move to another ISR member.
     */
    public List<MetadataRecord> handleBrokersLeaving(Set<Integer> leaving) {
        return handleBrokersLeaving(leaving, Set.of());
    }

    /**
     * As {@link #handleBrokersLeaving(Set)}, where the brokers in {@code lostData} restarted after an unclean
     * shutdown: they do not join the ELR of the partitions they leave (KIP-966).
     */
    public List<MetadataRecord> handleBrokersLeaving(Set<Integer> leaving, Set<Integer> lostData) {
        Set<TopicIdPartition> affected = new TreeSet<>(leaderless.comparator());
        for (int brokerId : leaving) {
            isrMembership.forEach(brokerId, affected::add);
        }
        IntPredicate eligible = id -> brokers.isUsable(id) && !leaving.contains(id);
        return elect(affected, eligible, Map.of(), lostData::contains);
    }

    /**
     * A broker registered again after an unclean shutdown (KIP-966): it may have lost records it had, so it leaves
     * every ELR it is in for the last-known ELR, and can no longer be elected ahead of a replica that has them.
     */
    public List<MetadataRecord> handleUncleanShutdown(int brokerId) {
        List<MetadataRecord> records = new ArrayList<>();
        Set<TopicIdPartition> affected = new TreeSet<>(leaderless.comparator());
        elrMembership.forEach(brokerId, affected::add);
        for (TopicIdPartition id : affected) {
            PartitionRegistration partition = partition(id);
            PartitionChangeRecord.Builder change = PartitionChangeRecord.newBuilder()
                    .setTopicId(Uuids.toProto(id.topicId())).setPartitionId(id.partition());
            ElrRule rule = elrRules.forTopic(metadata.topicName(id.topicId())).withLostData(b -> b == brokerId);
            if (rule.complete(partition, partition.isr(), partition.replicas(), false, change)) {
                records.add(MetadataRecords.of(change.build()));
            }
        }
        return records;
    }

    /**
     * ELR changes once min.insync.replicas changes for a topic or as the cluster-wide default (KIP-966): an ISR that
     * now reaches it clears the partition's ELR and last-known ELR.
     */
    public List<MetadataRecord> handleMinIsrConfig(ConfigResource resource, Optional<String> newValue) {
        Map<ConfigResource, Optional<String>> pending = Map.of(resource, newValue);
        List<MetadataRecord> records = new ArrayList<>();
        Set<TopicIdPartition> sorted = new TreeSet<>(leaderless.comparator());
        sorted.addAll(withElr);
        for (TopicIdPartition id : sorted) {
            String topicName = metadata.topicName(id.topicId());
            if (resource.type() == ConfigResource.Type.TOPIC && !resource.name().equals(topicName)) {
                continue;
            }
            PartitionRegistration partition = partition(id);
            PartitionChangeRecord.Builder change = PartitionChangeRecord.newBuilder()
                    .setTopicId(Uuids.toProto(id.topicId())).setPartitionId(id.partition());
            if (elrRules.forTopic(topicName, pending).complete(partition, partition.isr(), partition.replicas(), false,
                    change)) {
                records.add(MetadataRecords.of(change.build()));
            }
        }
        return records;
    }

    /** Elections for leaderless partitions the broker about to be unfenced can now lead. */
    public List<MetadataRecord> handleBrokerUnfenced(int brokerId) {
        Set<TopicIdPartition> candidates = new TreeSet<>(leaderless.comparator());
        for (TopicIdPartition id : leaderless) {
            if (partition(id).replicas().contains(brokerId)) {
                candidates.add(id);
            }
        }
        return elect(candidates, id -> id == brokerId || brokers.isUsable(id));
    }

    /**
     * Leader and ISR changes for a broker's failed log directories (KIP-858): each partition the broker reports in
     * one, and each whose replica was recorded in one before (the directory came back and failed again), records
     * the directory and leaves the broker out of its ISR and leadership, as fencing would for that replica alone.
     */
    public List<MetadataRecord> handleLogDirsOffline(int brokerId, List<OfflineLogDir> offline) {
        Map<TopicIdPartition, UUID> affected = new TreeMap<>(leaderless.comparator());
        Set<UUID> failed = new HashSet<>();
        for (OfflineLogDir dir : offline) {
            failed.add(dir.directoryId());
            for (TopicIdPartition id : dir.partitions()) {
                PartitionRegistration partition = partition(id);
                if (partition != null && partition.replicas().contains(brokerId)) {
                    affected.put(id, dir.directoryId());
                }
            }
        }
        isrMembership.forEach(brokerId, id -> partition(id).directoryOf(brokerId).filter(failed::contains)
                .ifPresent(dir -> affected.putIfAbsent(id, dir)));
        List<MetadataRecord> records = new ArrayList<>();
        affected.forEach((id, directory) -> {
            PartitionRegistration partition = partition(id);
            IntPredicate eligible = b -> b != brokerId && brokers.isUsable(b) && replicaOnline(partition, b);
            String topicName = metadata.topicName(id.topicId());
            Optional<PartitionChangeRecord.Builder> election = PartitionElection.changeBuilder(id.topicId(),
                    id.partition(), partition, eligible, uncleanElections.enabled(topicName),
                    elrRules.forTopic(topicName));
            election.ifPresent(change -> uncleanElections.recordIfUnclean(topicName, id.partition(), partition, change));
            boolean recordDirectory = !partition.directoryOf(brokerId).equals(Optional.of(directory));
            if (election.isEmpty() && !recordDirectory) {
                return;
            }
            PartitionChangeRecord.Builder change = election.orElseGet(() -> PartitionChangeRecord.newBuilder()
                    .setTopicId(Uuids.toProto(id.topicId())).setPartitionId(id.partition()));
            if (recordDirectory) {
                change.setDirectories(DirectoryAssignments.withReplicaIn(partition, brokerId, directory));
            }
            records.add(MetadataRecords.of(change.build()));
        });
        return records;
    }

    private List<MetadataRecord> elect(Set<TopicIdPartition> partitions, IntPredicate eligible) {
        return elect(partitions, eligible, Map.of(), b -> false);
    }

    /**
     * Elections with {@code pendingConfigs} (not yet replayed) applied to the unclean election setting, where the
     * brokers {@code lostData} accepts restarted after an unclean shutdown.
     */
    private List<MetadataRecord> elect(Set<TopicIdPartition> partitions, IntPredicate eligible,
                                       Map<ConfigResource, Optional<String>> pendingConfigs, IntPredicate lostData) {
        List<MetadataRecord> records = new ArrayList<>();
        for (TopicIdPartition id : partitions) {
            PartitionRegistration partition = partition(id);
            String topicName = metadata.topicName(id.topicId());
            PartitionElection.changeBuilder(id.topicId(), id.partition(), partition,
                    b -> eligible.test(b) && replicaOnline(partition, b),
                    uncleanElections.enabled(topicName, pendingConfigs),
                    elrRules.forTopic(topicName, pendingConfigs).withLostData(lostData)).ifPresent(change -> {
                        uncleanElections.recordIfUnclean(topicName, id.partition(), partition, change);
                        records.add(MetadataRecords.of(change.build()));
                    });
        }
        return records;
    }

    /**
     * Elections for leaderless partitions once {@code unclean.leader.election.enable} changes to true for them (set
     * on their topic, or as the cluster-wide default): as in Kafka, enabling it elects a live replica from outside
     * the ISR at once rather than at the next broker change.
     */
    public List<MetadataRecord> handleUncleanElectionConfig(ConfigResource resource, Optional<String> newValue) {
        Map<ConfigResource, Optional<String>> pending = Map.of(resource, newValue);
        Set<TopicIdPartition> candidates = new TreeSet<>(leaderless.comparator());
        for (TopicIdPartition id : leaderless) {
            String topicName = metadata.topicName(id.topicId());
            boolean concerned = resource.type() == ConfigResource.Type.TOPIC ? resource.name().equals(topicName)
                    : resource.name().isEmpty();
            if (concerned && topicName != null && uncleanElections.enabled(topicName, pending)) {
                candidates.add(id);
            }
        }
        return elect(candidates, brokers::isUsable, pending, b -> false);
    }

    /** Whether the broker's replica lives in a log directory the broker has online, or in one not known. */
    private boolean replicaOnline(PartitionRegistration partition, int brokerId) {
        Optional<UUID> directory = partition.directoryOf(brokerId);
        return directory.isEmpty() || brokers.isLogDirOnline(brokerId, directory.get());
    }

    /** Whether the broker leads any partition (a controlled shutdown completes when it leads none). */
    public boolean leadsPartitions(int brokerId) {
        return leaderCounts.getOrDefault(brokerId, 0) > 0;
    }

    private ControllerResult<List<List<Integer>>> place(int numPartitions, int replicationFactor) {
        List<UsableBroker> usable = brokers.usableBrokers();
        if (replicationFactor < 1 || replicationFactor > usable.size()) {
            return ControllerResult.failed(Errors.INVALID_REPLICATION_FACTOR, "Replication factor "
                    + replicationFactor + " must be between 1 and the " + usable.size() + " available brokers");
        }
        return ControllerResult.of(List.of(), ReplicaPlacer.place(numPartitions, replicationFactor, usable,
                replicaCounts, preferredLeaderCounts, random));
    }

    private ApiError validateAssignments(List<List<Integer>> assignments, int replicationFactor) {
        for (int i = 0; i < assignments.size(); i++) {
            List<Integer> replicas = assignments.get(i);
            if (replicas.isEmpty() || replicas.size() != replicationFactor) {
                return ApiError.of(Errors.INVALID_REPLICA_ASSIGNMENT, "Assignment " + replicas
                        + " must have " + replicationFactor + " replicas like the other partitions");
            }
            if (new HashSet<>(replicas).size() != replicas.size()) {
                return ApiError.of(Errors.INVALID_REPLICA_ASSIGNMENT, "Assignment " + replicas + " repeats a broker");
            }
            for (int brokerId : replicas) {
                if (!brokers.isRegistered(brokerId)) {
                    return ApiError.of(Errors.INVALID_REPLICA_ASSIGNMENT, "Assignment " + replicas
                            + " names broker " + brokerId + ", which is not registered");
                }
            }
            if (replicas.stream().noneMatch(brokers::isUsable)) {
                return ApiError.of(Errors.INVALID_REPLICA_ASSIGNMENT, "All brokers of assignment " + replicas
                        + " are fenced or shutting down");
            }
        }
        return ApiError.NONE;
    }

    // The ISR of a new partition is its usable replicas; the first of them leads.
    private PartitionRegistration newPartition(List<Integer> replicas) {
        List<Integer> isr = replicas.stream().filter(brokers::isUsable).toList();
        return new PartitionRegistration(replicas, isr, isr.get(0), 0, 0);
    }

    private UUID newTopicId() {
        while (true) {
            UUID id = new UUID(random.nextLong(), random.nextLong());
            if (metadata.topicName(id) == null && id.getMostSignificantBits() != 0) {
                return id;
            }
        }
    }

    private void reindex(TopicIdPartition id, PartitionRegistration previous, PartitionRegistration next) {
        if (previous != null) {
            previous.isr().forEach(b -> isrMembership.remove(b, id));
            previous.elr().forEach(b -> elrMembership.remove(b, id));
            withElr.remove(id);
            previous.replicas().forEach(b -> replicaCounts.merge(b, -1, Integer::sum));
            preferredLeaderCounts.merge(previous.replicas().get(0), -1, Integer::sum);
            if (previous.hasLeader()) {
                leaderCounts.merge(previous.leader(), -1, Integer::sum);
            } else {
                leaderless.remove(id);
            }
        }
        if (next != null) {
            next.isr().forEach(b -> isrMembership.add(b, id));
            next.elr().forEach(b -> elrMembership.add(b, id));
            if (!next.elr().isEmpty() || !next.lastKnownElr().isEmpty()) {
                withElr.add(id);
            }
            next.replicas().forEach(b -> replicaCounts.merge(b, 1, Integer::sum));
            preferredLeaderCounts.merge(next.replicas().get(0), 1, Integer::sum);
            if (next.hasLeader()) {
                leaderCounts.merge(next.leader(), 1, Integer::sum);
            } else {
                leaderless.add(id);
            }
        }
    }

    private PartitionRegistration partition(TopicIdPartition id) {
        return metadata.partition(id.topicId(), id.partition());
    }

    /** The topic's id, or empty if no topic has that name. */
    public Optional<UUID> topicId(String name) {
        return Optional.ofNullable(metadata.topicId(name));
    }

    public boolean topicExists(String name) {
        return metadata.topicId(name) != null;
    }

    /** The partition, or null. */
    public PartitionRegistration partition(UUID topicId, int partitionId) {
        return metadata.partition(topicId, partitionId);
    }

    /**
     * The indexes in a canonical form (zero counts and empty sets dropped), so that tests can compare indexes kept up
     * change by change with indexes built from an image.
     */
    Map<String, Object> indexes() {
        return Map.of("isrMembership", isrMembership.toMap(), "elrMembership", elrMembership.toMap(),
                "withElr", Set.copyOf(withElr), "leaderCounts", nonZero(leaderCounts),
                "replicaCounts", nonZero(replicaCounts), "preferredLeaderCounts", nonZero(preferredLeaderCounts),
                "leaderless", List.copyOf(leaderless), "namesByCollisionKey", Map.copyOf(namesByCollisionKey));
    }

    private static Map<Integer, Integer> nonZero(Map<Integer, Integer> counts) {
        Map<Integer, Integer> copy = new TreeMap<>();
        counts.forEach((broker, count) -> {
            if (count != 0) {
                copy.put(broker, count);
            }
        });
        return copy;
    }

    /** The topics as an image (a copy: for comparison and inspection, not for hot paths). */
    public TopicsImage image() {
        return metadata.image(MetadataProvenance.EMPTY).topics();
    }
}
