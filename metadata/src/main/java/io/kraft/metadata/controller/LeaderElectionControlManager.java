package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.IntPredicate;

/**
 * Leader elections an operator asks for (ElectLeaders: preferred and unclean, KIP-460) and the periodic move of
 * leadership back to preferred replicas ({@code auto.leader.rebalance.enable}). The preferred replica is the first
 * replica; it may take leadership only from the ISR and on a broker that may lead (unfenced, not shutting down, its
 * replica's log directory online). The manager keeps two indexes: the partitions not led by their preferred replica,
 * and the number of partitions each broker is the preferred replica of.
 */
final class LeaderElectionControlManager {
    /** At most this many leaderships move in one balancing pass, so one pass is one modest batch of records. */
    static final int MAX_ELECTIONS_PER_BALANCE = 1_000;
    /**
     * At most this many partitions are named in, or elected by, one ElectLeaders, so that its records stay one
     * modest Raft batch; electing every partition elects the first this many that need it (run again for more).
     */
    static final int MAX_PARTITIONS_PER_REQUEST = ReplicationControlManager.MAX_NEW_PARTITIONS_PER_REQUEST;

    private final SpeculativeMetadata metadata;
    private final BrokerLiveness brokers;
    private final TreeSet<TopicIdPartition> notPreferred = new TreeSet<>(
            (a, b) -> a.topicId().equals(b.topicId()) ? Integer.compare(a.partition(), b.partition())
                    : a.topicId().compareTo(b.topicId()));
    /** Partitions by preferred replica. */
    private final Map<Integer, Integer> preferredCounts = new HashMap<>();

    private final UncleanElections uncleanElections;
    private final ElrRules elrRules;

    LeaderElectionControlManager(SpeculativeMetadata metadata, BrokerLiveness brokers,
                                 UncleanElections uncleanElections, ElrRules elrRules) {
        this.metadata = metadata;
        this.brokers = brokers;
        this.uncleanElections = uncleanElections;
        this.elrRules = elrRules;
    }

    void partitionChanged(TopicIdPartition id, PartitionRegistration before, PartitionRegistration after) {
        if (before != null) {
            preferredCounts.merge(before.preferredLeader(), -1, Integer::sum);
        }
        if (after != null) {
            preferredCounts.merge(after.preferredLeader(), 1, Integer::sum);
        }
        if (after != null && after.leader() != after.preferredLeader()) {
            notPreferred.add(id);
        } else {
            notPreferred.remove(id);
        }
    }

    /**
     * Elects leaders of the named partitions (topic name to partition ids), or of every partition when
     * {@code partitions} is empty; answers each partition's outcome by topic name. With every partition, only the
     * partitions that needed an election are answered.
     */
    ControllerResult<Map<String, Map<Integer, ApiError>>> electLeaders(
            ElectionType type, Optional<Map<String, Set<Integer>>> partitions) {
        Map<String, Map<Integer, ApiError>> results = new LinkedHashMap<>();
        List<MetadataRecord> records = new ArrayList<>();
        if (partitions.isPresent()) {
            long named = partitions.get().values().stream().mapToLong(Set::size).sum();
            if (named > MAX_PARTITIONS_PER_REQUEST) {
                return ControllerResult.failed(Errors.INVALID_REQUEST, named + " partitions named; at most "
                        + MAX_PARTITIONS_PER_REQUEST + " per request");
            }
            partitions.get().forEach((topic, ids) -> {
                UUID topicId = metadata.topicId(topic);
                Map<Integer, ApiError> topicResults = results.computeIfAbsent(topic, t -> new TreeMap<>());
                for (int partitionId : ids) {
                    PartitionRegistration partition = topicId == null ? null : metadata.partition(topicId, partitionId);
                    topicResults.put(partitionId, partition == null
                            ? ApiError.of(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Partition " + topic + "-" + partitionId
                                    + " does not exist")
                            : elect(type, topic, topicId, partitionId, partition, records));
                }
            });
        } else {
            for (TopicIdPartition id : List.copyOf(notPreferred)) {
                if (records.size() == MAX_PARTITIONS_PER_REQUEST) {
                    break;
                }
                PartitionRegistration partition = metadata.partition(id.topicId(), id.partition());
                if (type == ElectionType.UNCLEAN && partition.hasLeader()) {
                    continue;
                }
                String topic = metadata.topicName(id.topicId());
                ApiError error = elect(type, topic, id.topicId(), id.partition(), partition, records);
                if (error.error() != Errors.ELECTION_NOT_NEEDED) {
                    results.computeIfAbsent(topic, t -> new TreeMap<>()).put(id.partition(), error);
                }
            }
        }
        return ControllerResult.of(records, results);
    }

    /**
     * One balancing pass: for every broker that may lead and whose share of preferred leaderships held elsewhere is
     * above {@code imbalancePercent}, those leaderships move back to it where it is in the ISR. Answers the moved
     * partitions.
     */
    ControllerResult<List<TopicIdPartition>> balance(int imbalancePercent) {
        Map<Integer, List<TopicIdPartition>> movable = new HashMap<>();
        Map<Integer, Integer> notLed = new HashMap<>();
        for (TopicIdPartition id : notPreferred) {
            PartitionRegistration partition = metadata.partition(id.topicId(), id.partition());
            int preferred = partition.preferredLeader();
            notLed.merge(preferred, 1, Integer::sum);
            if (partition.isr().contains(preferred) && brokers.mayLead(partition, preferred)) {
                movable.computeIfAbsent(preferred, b -> new ArrayList<>()).add(id);
            }
        }
        List<MetadataRecord> records = new ArrayList<>();
        List<TopicIdPartition> moved = new ArrayList<>();
        for (Map.Entry<Integer, List<TopicIdPartition>> entry : new TreeMap<>(movable).entrySet()) {
            int broker = entry.getKey();
            long preferredCount = preferredLeaderships(broker);
            // Kafka's rule: act when leaderships held elsewhere exceed the percentage of the broker's preferred ones.
            if (preferredCount == 0 || notLed.get(broker) * 100L <= imbalancePercent * preferredCount) {
                continue;
            }
            for (TopicIdPartition id : entry.getValue()) {
                if (moved.size() == MAX_ELECTIONS_PER_BALANCE) {
                    break;
                }
                records.add(leaderChange(id.topicId(), id.partition(), broker));
                moved.add(id);
            }
        }
        return ControllerResult.of(records, moved);
    }

    private long preferredLeaderships(int brokerId) {
        return preferredCounts.getOrDefault(brokerId, 0);
    }

    private ApiError elect(ElectionType type, String topic, UUID topicId, int partitionId,
                           PartitionRegistration partition, List<MetadataRecord> records) {
        String where = topic + "-" + partitionId;
        if (type == ElectionType.PREFERRED) {
            int preferred = partition.preferredLeader();
            if (partition.leader() == preferred) {
                return ApiError.of(Errors.ELECTION_NOT_NEEDED, "Broker " + preferred + " already leads " + where);
            }
            if (!partition.isr().contains(preferred) || !brokers.mayLead(partition, preferred)) {
                return ApiError.of(Errors.PREFERRED_LEADER_NOT_AVAILABLE, "Preferred replica " + preferred + " of "
                        + where + " is not in the ISR " + partition.isr() + " or its broker may not lead");
            }
            records.add(leaderChange(topicId, partitionId, preferred));
            return ApiError.NONE;
        }
        if (partition.hasLeader()) {
            return ApiError.of(Errors.ELECTION_NOT_NEEDED, "Broker " + partition.leader() + " already leads " + where);
        }
        IntPredicate eligible = b -> brokers.mayLead(partition, b);
        Optional<PartitionChangeRecord.Builder> change = PartitionElection.changeBuilder(topicId, partitionId, partition,
                eligible, true, elrRules.forTopic(topic));
        if (change.isEmpty() || !change.get().hasLeader() || change.get().getLeader() == PartitionRegistration.NO_LEADER) {
            return ApiError.of(Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE, "No replica of " + where + " among "
                    + partition.replicas() + " may lead");
        }
        // Asked for by name, so allowed whatever unclean.leader.election.enable says; logged and counted the same.
        uncleanElections.recordIfUnclean(topic, partitionId, partition, change.get());
        records.add(MetadataRecords.of(change.get().build()));
        return ApiError.NONE;
    }


    private static MetadataRecord leaderChange(UUID topicId, int partitionId, int leader) {
        return MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(topicId))
                .setPartitionId(partitionId).setLeader(leader).build());
    }
}
