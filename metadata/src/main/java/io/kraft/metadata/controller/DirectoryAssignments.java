package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.proto.metadata.DirectoryIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Records where a broker says its replicas live (KIP-858's AssignReplicasToDirs): each replica whose recorded
 * directory differs gets a PartitionChangeRecord with the partition's directories, the replica's one replaced.
 * Only an online directory of the broker is accepted, so a recorded directory never takes a live replica offline.
 */
final class DirectoryAssignments {
    private final SpeculativeMetadata metadata;
    private final BrokerLiveness brokers;

    DirectoryAssignments(SpeculativeMetadata metadata, BrokerLiveness brokers) {
        this.metadata = metadata;
        this.brokers = brokers;
    }

    /** The records and, per partition, NONE or why its assignment was refused (state unchanged for it). */
    ControllerResult<Map<TopicIdPartition, Errors>> assign(AssignReplicasToDirsRequest request) {
        int brokerId = request.brokerId();
        long epoch = brokers.brokerEpoch(brokerId);
        if (epoch < 0) {
            return ControllerResult.failed(Errors.BROKER_ID_NOT_REGISTERED, "Broker " + brokerId
                    + " is not registered");
        }
        if (epoch != request.brokerEpoch()) {
            return ControllerResult.failed(Errors.STALE_BROKER_EPOCH, "Broker " + brokerId + " sent epoch "
                    + request.brokerEpoch() + " but its registration has epoch " + epoch);
        }
        Map<TopicIdPartition, Errors> results = new LinkedHashMap<>();
        List<MetadataRecord> records = new ArrayList<>();
        request.directories().forEach((id, directory) -> {
            Errors error = check(brokerId, id, directory);
            results.put(id, error);
            PartitionRegistration partition = metadata.partition(id.topicId(), id.partition());
            if (error == Errors.NONE && !partition.directoryOf(brokerId).equals(Optional.of(directory))) {
                records.add(MetadataRecords.of(PartitionChangeRecord.newBuilder()
                        .setTopicId(Uuids.toProto(id.topicId())).setPartitionId(id.partition())
                        .setDirectories(withReplicaIn(partition, brokerId, directory)).build()));
            }
        });
        return ControllerResult.of(records, results);
    }

    /** The partition's directories (for PartitionChangeRecord) with the broker's replica in {@code directory}. */
    static DirectoryIdList withReplicaIn(PartitionRegistration partition, int brokerId, UUID directory) {
        DirectoryIdList.Builder directories = DirectoryIdList.newBuilder();
        partition.directoriesWith(brokerId, directory).forEach(d -> directories.addDirectoryIds(Uuids.toProto(d)));
        return directories.build();
    }

    private Errors check(int brokerId, TopicIdPartition id, UUID directory) {
        if (metadata.topicName(id.topicId()) == null) {
            return Errors.UNKNOWN_TOPIC_ID;
        }
        PartitionRegistration partition = metadata.partition(id.topicId(), id.partition());
        if (partition == null) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        if (!partition.replicas().contains(brokerId)) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        if (!brokers.isLogDirOnline(brokerId, directory)) {
            return Errors.LOG_DIR_NOT_FOUND;
        }
        return Errors.NONE;
    }
}
