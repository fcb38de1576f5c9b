package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partition reassignments (AlterPartitionReassignments, KIP-455): a new target adds the target replicas that are not
 * replicas yet ({@code addingReplicas}) and marks the replicas outside it as leaving ({@code removingReplicas}), with
 * the replicas ordered target first; once every adding replica has joined the ISR (through its leader's
 * AlterPartition) the partition keeps only the target replicas, and leadership moves to one of them if its leader is
 * leaving. Cancelling drops the adding replicas and keeps the others. The whole state is in the partition's records,
 * so a new active controller carries on where the old one stopped.
 */
final class ReassignmentControlManager {
    private static final Logger LOG = LoggerFactory.getLogger(ReassignmentControlManager.class);
    /** At most this many partitions per request, so that its records (up to two each) stay one modest Raft batch. */
    static final int MAX_PARTITIONS_PER_REQUEST = ReplicationControlManager.MAX_NEW_PARTITIONS_PER_REQUEST;

    private final SpeculativeMetadata metadata;
    private final BrokerLiveness brokers;
    private final ElrRules elrRules;

    ReassignmentControlManager(SpeculativeMetadata metadata, BrokerLiveness brokers, ElrRules elrRules) {
        this.metadata = metadata;
        this.brokers = brokers;
        this.elrRules = elrRules;
    }

    /**
     * Starts, replaces or cancels (an empty target) the reassignment of each named partition, by topic name then
     * partition id; answers each partition's outcome.
     *
     * @param allowReplicationFactorChange false refuses a target with another number of replicas (KIP-860)
     */
    ControllerResult<Map<String, Map<Integer, ApiError>>> alter(
            Map<String, Map<Integer, Optional<List<Integer>>>> targets, boolean allowReplicationFactorChange) {
        long named = targets.values().stream().mapToLong(Map::size).sum();
        if (named > MAX_PARTITIONS_PER_REQUEST) {
            return ControllerResult.failed(Errors.INVALID_REQUEST, named + " partitions named; at most "
                    + MAX_PARTITIONS_PER_REQUEST + " per request");
        }
        Map<String, Map<Integer, ApiError>> results = new LinkedHashMap<>();
        List<MetadataRecord> records = new ArrayList<>();
        targets.forEach((topic, partitions) -> {
            Map<Integer, ApiError> topicResults = results.computeIfAbsent(topic, t -> new TreeMap<>());
            UUID topicId = metadata.topicId(topic);
            partitions.forEach((partitionId, target) -> {
                PartitionRegistration partition = topicId == null ? null : metadata.partition(topicId, partitionId);
                ApiError error;
                if (partition == null) {
                    error = ApiError.of(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Partition " + topic + "-" + partitionId
                            + " does not exist");
                } else if (target.isPresent()) {
                    error = reassign(topic, topicId, partitionId, partition, target.get(), allowReplicationFactorChange,
                            records);
                } else {
                    error = cancel(topic, topicId, partitionId, partition, records);
                }
                topicResults.put(partitionId, error);
            });
        });
        return ControllerResult.of(records, results);
    }

    private ApiError reassign(String topic, UUID topicId, int partitionId, PartitionRegistration partition,
                              List<Integer> target, boolean allowReplicationFactorChange, List<MetadataRecord> records) {
        String where = topic + "-" + partitionId;
        if (target.isEmpty()) {
            return ApiError.of(Errors.INVALID_REPLICA_ASSIGNMENT, "The target replicas of " + where + " are empty");
        }
        if (new HashSet<>(target).size() != target.size()) {
            return ApiError.of(Errors.INVALID_REPLICA_ASSIGNMENT, "The target replicas " + target + " of " + where
                    + " repeat a broker");
        }
        for (int brokerId : target) {
            if (!brokers.isRegistered(brokerId)) {
                return ApiError.of(Errors.INVALID_REPLICA_ASSIGNMENT, "The target replicas " + target + " of " + where
                        + " name broker " + brokerId + ", which is not registered");
            }
        }
        int currentFactor = partition.targetReplicas().size();
        if (!allowReplicationFactorChange && target.size() != currentFactor) {
            return ApiError.of(Errors.INVALID_REPLICATION_FACTOR, "The target replicas " + target + " of " + where
                    + " change its replication factor " + currentFactor + ", which the request does not allow");
        }
        List<Integer> current = partition.replicas();
        List<Integer> adding = target.stream().filter(b -> !current.contains(b)).toList();
        List<Integer> removing = current.stream().filter(b -> !target.contains(b)).toList();
        List<Integer> replicas = new ArrayList<>(target);
        replicas.addAll(removing);
        if (replicas.equals(current) && adding.equals(partition.addingReplicas())
                && removing.equals(partition.removingReplicas())) {
            return ApiError.NONE;
        }
        PartitionChangeRecord start = change(topicId, partitionId).setReplicas(ids(replicas))
                .setAddingReplicas(ids(adding)).setRemovingReplicas(ids(removing)).build();
        records.add(MetadataRecords.of(start));
        LOG.info("Reassignment of {} to {}: adding {}, removing {}", where, target, adding, removing);
        completion(topicId, partitionId, partition.merge(start)).ifPresent(records::add);
        return ApiError.NONE;
    }

    private ApiError cancel(String topic, UUID topicId, int partitionId, PartitionRegistration partition,
                            List<MetadataRecord> records) {
        String where = topic + "-" + partitionId;
        if (!partition.isReassigning()) {
            return ApiError.of(Errors.NO_REASSIGNMENT_IN_PROGRESS, "No reassignment of " + where + " is running");
        }
        List<Integer> adding = partition.addingReplicas();
        List<Integer> original = partition.replicas().stream().filter(b -> !adding.contains(b)).toList();
        List<Integer> isr = partition.isr().stream().filter(b -> !adding.contains(b)).toList();
        if (isr.isEmpty()) {
            return ApiError.of(Errors.INVALID_REPLICA_ASSIGNMENT, "Cancelling the reassignment of " + where
                    + " would leave no replica in sync: only adding replicas " + partition.isr() + " are");
        }
        PartitionChangeRecord.Builder change = change(topicId, partitionId).setReplicas(ids(original))
                .setAddingReplicas(ids(List.of())).setRemovingReplicas(ids(List.of()));
        finish(change, topicId, partition, original, isr);
        records.add(MetadataRecords.of(change.build()));
        LOG.info("Reassignment of {} cancelled: replicas {} again", where, original);
        return ApiError.NONE;
    }

    /**
     * The change completing the partition's reassignment if every adding replica is in its ISR (and a target replica
     * is), else empty.
     */
    Optional<MetadataRecord> completion(UUID topicId, int partitionId, PartitionRegistration partition) {
        if (!partition.isReassigning() || !partition.isr().containsAll(partition.addingReplicas())) {
            return Optional.empty();
        }
        List<Integer> target = partition.targetReplicas();
        List<Integer> isr = partition.isr().stream().filter(target::contains).toList();
        if (isr.isEmpty()) {
            return Optional.empty();
        }
        PartitionChangeRecord.Builder change = change(topicId, partitionId).setReplicas(ids(target))
                .setAddingReplicas(ids(List.of())).setRemovingReplicas(ids(List.of()));
        finish(change, topicId, partition, target, isr);
        LOG.info("Reassignment of {}-{} complete: replicas {}, ISR {}", metadata.topicName(topicId), partitionId,
                target, isr);
        return Optional.of(MetadataRecords.of(change.build()));
    }

    /**
     * Sets the ISR, the ELR kept to the new replicas (KIP-966) and, if the leader is not among the new replicas, a new
     * leader from the new ISR.
     */
    private void finish(PartitionChangeRecord.Builder change, UUID topicId, PartitionRegistration partition,
                        List<Integer> replicas, List<Integer> isr) {
        if (!isr.equals(partition.isr())) {
            change.setIsr(ids(isr));
        }
        elrRules.forTopic(metadata.topicName(topicId)).complete(partition, isr, replicas, false, change);
        if (!partition.hasLeader() || !replicas.contains(partition.leader())) {
            int leader = replicas.stream().filter(b -> isr.contains(b) && brokers.mayLead(partition, b)).findFirst()
                    .orElse(PartitionRegistration.NO_LEADER);
            if (leader != partition.leader()) {
                change.setLeader(leader);
            }
        }
    }


    private static PartitionChangeRecord.Builder change(UUID topicId, int partitionId) {
        return PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(topicId)).setPartitionId(partitionId);
    }

    private static BrokerIdList ids(List<Integer> ids) {
        return BrokerIdList.newBuilder().addAllBrokerIds(ids).build();
    }
}
