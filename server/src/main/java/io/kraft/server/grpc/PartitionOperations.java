package io.kraft.server.grpc;

import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.ElectionType;
import io.kraft.proto.controller.AlterPartitionReassignmentsRequest;
import io.kraft.proto.controller.ElectLeadersRequest;
import io.kraft.proto.controller.NamedTopicPartitions;
import io.kraft.proto.controller.PartitionOperationResponse;
import io.kraft.proto.controller.PartitionOperationResult;
import io.kraft.proto.controller.ReassignmentTarget;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.storage.errors.Errors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The control plane's form of the partition operations (ElectLeaders, AlterPartitionReassignments): the
 * {@link io.kraft.metadata.controller.Controller}'s maps to and from their protobuf messages, for both ends.
 */
final class PartitionOperations {
    private PartitionOperations() {
    }

    static ElectLeadersRequest electLeaders(ElectionType type, Optional<Map<String, Set<Integer>>> partitions) {
        ElectLeadersRequest.Builder request = ElectLeadersRequest.newBuilder().setElectionType(type.value())
                .setAllPartitions(partitions.isEmpty());
        partitions.ifPresent(named -> named.forEach((topic, ids) -> request.addPartitions(
                NamedTopicPartitions.newBuilder().setTopic(topic).addAllPartitions(ids))));
        return request.build();
    }

    /** The partitions named, or empty for all. */
    static Optional<Map<String, Set<Integer>>> partitions(ElectLeadersRequest request) {
        if (request.getAllPartitions()) {
            return Optional.empty();
        }
        Map<String, Set<Integer>> named = new LinkedHashMap<>();
        request.getPartitionsList().forEach(topic -> named.computeIfAbsent(topic.getTopic(), t -> new TreeSet<>())
                .addAll(topic.getPartitionsList()));
        return Optional.of(named);
    }

    static AlterPartitionReassignmentsRequest alterReassignments(
            Map<String, Map<Integer, Optional<List<Integer>>>> targets, boolean allowReplicationFactorChange) {
        AlterPartitionReassignmentsRequest.Builder request = AlterPartitionReassignmentsRequest.newBuilder()
                .setAllowReplicationFactorChange(allowReplicationFactorChange);
        targets.forEach((topic, partitions) -> partitions.forEach((partition, replicas) -> {
            ReassignmentTarget.Builder target = ReassignmentTarget.newBuilder().setTopic(topic).setPartition(partition);
            replicas.ifPresent(ids -> target.setReplicas(BrokerIdList.newBuilder().addAllBrokerIds(ids)));
            request.addTargets(target);
        }));
        return request.build();
    }

    static Map<String, Map<Integer, Optional<List<Integer>>>> targets(AlterPartitionReassignmentsRequest request) {
        Map<String, Map<Integer, Optional<List<Integer>>>> targets = new LinkedHashMap<>();
        for (ReassignmentTarget target : request.getTargetsList()) {
            targets.computeIfAbsent(target.getTopic(), t -> new LinkedHashMap<>()).put(target.getPartition(),
                    target.hasReplicas() ? Optional.of(List.copyOf(target.getReplicas().getBrokerIdsList()))
                            : Optional.empty());
        }
        return targets;
    }

    /** The response carrying each partition's outcome, or the whole request's error. */
    static PartitionOperationResponse.Builder response(Map<String, Map<Integer, ApiError>> results, ApiError error) {
        PartitionOperationResponse.Builder response = PartitionOperationResponse.newBuilder()
                .setErrorCode(error.error().code()).setErrorMessage(error.message() == null ? "" : error.message());
        if (results != null) {
            results.forEach((topic, partitions) -> partitions.forEach((partition, outcome) -> response.addResults(
                    PartitionOperationResult.newBuilder().setTopic(topic).setPartition(partition)
                            .setErrorCode(outcome.error().code())
                            .setErrorMessage(outcome.message() == null ? "" : outcome.message()))));
        }
        return response;
    }

    static Map<String, Map<Integer, ApiError>> results(PartitionOperationResponse response) {
        Map<String, Map<Integer, ApiError>> results = new LinkedHashMap<>();
        for (PartitionOperationResult result : response.getResultsList()) {
            Errors error = GrpcControllerClient.errorFor(result.getErrorCode());
            results.computeIfAbsent(result.getTopic(), t -> new TreeMap<>()).put(result.getPartition(),
                    error == Errors.NONE ? ApiError.NONE : ApiError.of(error,
                            result.getErrorMessage().isEmpty() ? null : result.getErrorMessage()));
        }
        return results;
    }
}
