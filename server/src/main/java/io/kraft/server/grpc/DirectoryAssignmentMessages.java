package io.kraft.server.grpc;

import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.AssignReplicasToDirsRequest;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.proto.controller.AssignReplicasToDirsResponse;
import io.kraft.proto.controller.AssignmentResult;
import io.kraft.proto.controller.DirectoryAssignment;
import io.kraft.proto.controller.PartitionId;
import io.kraft.storage.errors.Errors;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** The control plane's form of AssignReplicasToDirs (KIP-858): one entry per directory, its partitions under it. */
final class DirectoryAssignmentMessages {
    private DirectoryAssignmentMessages() {
    }

    static io.kraft.proto.controller.AssignReplicasToDirsRequest request(AssignReplicasToDirsRequest request) {
        Map<UUID, DirectoryAssignment.Builder> byDirectory = new TreeMap<>();
        request.directories().forEach((id, directory) -> byDirectory.computeIfAbsent(directory,
                        d -> DirectoryAssignment.newBuilder().setDirectoryId(Uuids.toProto(d)))
                .addPartitions(partitionId(id)));
        io.kraft.proto.controller.AssignReplicasToDirsRequest.Builder message =
                io.kraft.proto.controller.AssignReplicasToDirsRequest.newBuilder()
                        .setBrokerId(request.brokerId()).setBrokerEpoch(request.brokerEpoch());
        byDirectory.values().forEach(message::addDirectories);
        return message.build();
    }

    /** The request, refusing (IllegalArgumentException) one naming more partitions than a request may. */
    static AssignReplicasToDirsRequest request(io.kraft.proto.controller.AssignReplicasToDirsRequest message) {
        ControllerRequestChecks.brokerIdAndEpoch(message.getBrokerId(), message.getBrokerEpoch());
        Map<TopicIdPartition, UUID> directories = new LinkedHashMap<>();
        for (DirectoryAssignment assignment : message.getDirectoriesList()) {
            UUID directory = Uuids.fromProto(assignment.getDirectoryId());
            for (PartitionId partition : assignment.getPartitionsList()) {
                ControllerRequestChecks.atMost("partitions", directories.size() + 1,
                        ControllerRequestChecks.MAX_ENTRIES_PER_REQUEST);
                directories.put(new TopicIdPartition(Uuids.fromProto(partition.getTopicId()),
                        partition.getPartitionId()), directory);
            }
        }
        return new AssignReplicasToDirsRequest(message.getBrokerId(), message.getBrokerEpoch(), directories);
    }

    static void addResults(AssignReplicasToDirsResponse.Builder response, Map<TopicIdPartition, Errors> results) {
        results.forEach((id, error) -> response.addResults(AssignmentResult.newBuilder()
                .setPartition(partitionId(id)).setErrorCode(error.code())));
    }

    static Map<TopicIdPartition, Errors> results(AssignReplicasToDirsResponse response) {
        Map<TopicIdPartition, Errors> results = new LinkedHashMap<>();
        for (AssignmentResult result : response.getResultsList()) {
            results.put(new TopicIdPartition(Uuids.fromProto(result.getPartition().getTopicId()),
                    result.getPartition().getPartitionId()), GrpcControllerClient.errorFor(result.getErrorCode()));
        }
        return results;
    }

    private static PartitionId partitionId(TopicIdPartition id) {
        return PartitionId.newBuilder().setTopicId(Uuids.toProto(id.topicId())).setPartitionId(id.partition()).build();
    }
}
