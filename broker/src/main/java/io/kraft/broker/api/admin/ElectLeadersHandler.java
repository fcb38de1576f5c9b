package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ElectLeadersRequest;
import io.kraft.broker.protocol.message.ElectLeadersRequest.TopicPartitions;
import io.kraft.broker.protocol.message.ElectLeadersResponse;
import io.kraft.broker.protocol.message.ElectLeadersResponse.PartitionResult;
import io.kraft.broker.protocol.message.ElectLeadersResponse.ReplicaElectionResult;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ElectionType;
import io.kraft.storage.errors.Errors;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Answers ElectLeaders (v0-2; KIP-183, v1+ election type from KIP-460) through the active {@link Controller}, which
 * decides every partition's election: preferred (v0 knows only that) or unclean, for the named partitions or, with
 * none named, for every partition that needs one. A controller that does not answer within timeout_ms makes every
 * named partition REQUEST_TIMED_OUT (and the top-level error from v1).
 */
public final class ElectLeadersHandler implements AsyncRequestHandler<ElectLeadersRequest, ElectLeadersResponse> {
    private final Controller controller;

    public ElectLeadersHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.ELECT_LEADERS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<ElectLeadersRequest> request) {
        ElectLeadersRequest body = request.body();
        Optional<Map<String, Set<Integer>>> partitions = named(body);
        ElectionType type;
        try {
            type = request.version() >= 1 ? ElectionType.forValue(body.electionType()) : ElectionType.PREFERRED;
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(HandlerResponse.of(answer(partitions, new Outcome<>(null,
                    Errors.INVALID_REQUEST.code(), e.getMessage()))));
        }
        Optional<Map<String, Set<Integer>>> asked = partitions;
        return ControllerErrors.outcome(controller.electLeaders(type, partitions), body.timeoutMs())
                .thenApply(outcome -> HandlerResponse.of(answer(asked, outcome)));
    }

    private static ElectLeadersResponse answer(Optional<Map<String, Set<Integer>>> asked,
                                               Outcome<Map<String, Map<Integer, ApiError>>> outcome) {
        ElectLeadersResponse response = new ElectLeadersResponse();
        Map<String, Map<Integer, ApiError>> results = new TreeMap<>();
        if (outcome.succeeded()) {
            results.putAll(outcome.value());
        } else {
            response.setErrorCode(outcome.errorCode());
            ApiError failed = new ApiError(Errors.forCode(outcome.errorCode()), outcome.errorMessage());
            asked.ifPresent(named -> named.forEach((topic, ids) -> ids.forEach(id ->
                    results.computeIfAbsent(topic, t -> new TreeMap<>()).put(id, failed))));
        }
        results.forEach((topic, partitionResults) -> {
            ReplicaElectionResult topicResult = new ReplicaElectionResult().setTopic(topic);
            partitionResults.forEach((partition, error) -> topicResult.partitionResult().add(new PartitionResult()
                    .setPartitionId(partition).setErrorCode(error.error().code()).setErrorMessage(error.message())));
            response.replicaElectionResults().add(topicResult);
        });
        return response;
    }

    /** Every named partition failed with {@code error} (v0 has no top-level error); none named: the top level only. */
    @Override
    public Optional<ElectLeadersResponse> errorResponse(ApiRequest<ElectLeadersRequest> request, Errors error) {
        return Optional.of(answer(named(request.body()), new Outcome<>(null, error.code(), null)));
    }

    /** The partitions the request names by topic, or empty when it names none (every partition). */
    private static Optional<Map<String, Set<Integer>>> named(ElectLeadersRequest body) {
        if (body.topicPartitions() == null) {
            return Optional.empty();
        }
        Map<String, Set<Integer>> named = new LinkedHashMap<>();
        for (TopicPartitions topic : body.topicPartitions()) {
            named.computeIfAbsent(topic.topic(), t -> new TreeSet<>()).addAll(topic.partitions());
        }
        return Optional.of(named);
    }
}
