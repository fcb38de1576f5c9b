package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.AlterPartitionReassignmentsRequest;
import io.kraft.broker.protocol.message.AlterPartitionReassignmentsRequest.ReassignablePartition;
import io.kraft.broker.protocol.message.AlterPartitionReassignmentsRequest.ReassignableTopic;
import io.kraft.broker.protocol.message.AlterPartitionReassignmentsResponse;
import io.kraft.broker.protocol.message.AlterPartitionReassignmentsResponse.ReassignablePartitionResponse;
import io.kraft.broker.protocol.message.AlterPartitionReassignmentsResponse.ReassignableTopicResponse;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.Controller;
import io.kraft.storage.errors.Errors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers AlterPartitionReassignments (v0-1; KIP-455, v1's allow_replication_factor_change from KIP-860) through the
 * active {@link Controller}: each partition gets its target replicas, or its reassignment cancelled (null replicas).
 * The answer comes once the change has committed, not once replicas have moved (ListPartitionReassignments shows
 * that). A controller that does not answer within timeout_ms makes the request REQUEST_TIMED_OUT.
 */
public final class AlterPartitionReassignmentsHandler
        implements AsyncRequestHandler<AlterPartitionReassignmentsRequest, AlterPartitionReassignmentsResponse> {
    private final Controller controller;

    public AlterPartitionReassignmentsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.ALTER_PARTITION_REASSIGNMENTS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<AlterPartitionReassignmentsRequest> request) {
        AlterPartitionReassignmentsRequest body = request.body();
        boolean allowReplicationFactorChange = request.version() < 1 || body.allowReplicationFactorChange();
        Map<String, Map<Integer, Optional<List<Integer>>>> targets = new LinkedHashMap<>();
        for (ReassignableTopic topic : body.topics()) {
            Map<Integer, Optional<List<Integer>>> partitions = targets.computeIfAbsent(topic.name(),
                    t -> new LinkedHashMap<>());
            for (ReassignablePartition partition : topic.partitions()) {
                partitions.put(partition.partitionIndex(), partition.replicas() == null ? Optional.empty()
                        : Optional.of(List.copyOf(partition.replicas())));
            }
        }
        return ControllerErrors.outcome(controller.alterPartitionReassignments(targets, allowReplicationFactorChange),
                body.timeoutMs()).thenApply(outcome -> HandlerResponse.of(answer(targets, outcome)
                        .setAllowReplicationFactorChange(allowReplicationFactorChange)));
    }

    private static AlterPartitionReassignmentsResponse answer(Map<String, Map<Integer, Optional<List<Integer>>>> asked,
                                                              Outcome<Map<String, Map<Integer, ApiError>>> outcome) {
        AlterPartitionReassignmentsResponse response = new AlterPartitionReassignmentsResponse();
        ApiError failed = null;
        if (!outcome.succeeded()) {
            failed = new ApiError(Errors.forCode(outcome.errorCode()), outcome.errorMessage());
            response.setErrorCode(outcome.errorCode()).setErrorMessage(outcome.errorMessage());
        }
        for (Map.Entry<String, Map<Integer, Optional<List<Integer>>>> topic : asked.entrySet()) {
            ReassignableTopicResponse topicResponse = new ReassignableTopicResponse().setName(topic.getKey());
            for (int partition : topic.getValue().keySet()) {
                ApiError error = failed != null ? failed : outcome.value().getOrDefault(topic.getKey(), Map.of())
                        .getOrDefault(partition, ApiError.NONE);
                topicResponse.partitions().add(new ReassignablePartitionResponse().setPartitionIndex(partition)
                        .setErrorCode(error.error().code()).setErrorMessage(error.message()));
            }
            response.responses().add(topicResponse);
        }
        return response;
    }

    @Override
    public Optional<AlterPartitionReassignmentsResponse> errorResponse(
            ApiRequest<AlterPartitionReassignmentsRequest> request, Errors error) {
        return Optional.of(new AlterPartitionReassignmentsResponse().setErrorCode(error.code()));
    }
}
