package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.CreatePartitionsRequest;
import io.kraft.broker.protocol.message.CreatePartitionsRequest.CreatePartitionsAssignment;
import io.kraft.broker.protocol.message.CreatePartitionsRequest.CreatePartitionsTopic;
import io.kraft.broker.protocol.message.CreatePartitionsResponse;
import io.kraft.broker.protocol.message.CreatePartitionsResponse.CreatePartitionsTopicResult;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Answers CreatePartitions (v0-3) through the active {@link Controller}: each topic grows to its new count,
 * with explicit replicas for the new partitions or placed by the controller; validate_only runs the
 * controller's dry run. A topic named twice fails both times with INVALID_REQUEST, as in Kafka. The answer comes
 * when the controller has answered every topic or the request's timeout_ms has passed; no handler thread waits
 * meanwhile.
 */
public final class CreatePartitionsHandler
        implements AsyncRequestHandler<CreatePartitionsRequest, CreatePartitionsResponse> {
    private final Controller controller;

    public CreatePartitionsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.CREATE_PARTITIONS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<CreatePartitionsRequest> request) {
        CreatePartitionsRequest body = request.body();
        long timeoutMs = body.timeoutMs();
        boolean validateOnly = body.validateOnly();
        List<CreatePartitionsTopic> topics = body.topics();
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new HashSet<>();
        for (CreatePartitionsTopic topic : topics) {
            if (!seen.add(topic.name())) {
                duplicates.add(topic.name());
            }
        }
        List<String> names = new ArrayList<>(topics.size());
        List<CompletableFuture<Outcome<Void>>> outcomes = new ArrayList<>(topics.size());
        for (CreatePartitionsTopic topic : topics) {
            String name = topic.name();
            names.add(name);
            CompletableFuture<Void> answer;
            if (duplicates.contains(name)) {
                answer = CompletableFuture.failedFuture(new ControllerException(Errors.INVALID_REQUEST,
                        "Topic " + name + " appears more than once in the request"));
            } else if (!context.authorize(AclOperation.ALTER, ResourceType.TOPIC, name)) {
                answer = CompletableFuture.failedFuture(new ControllerException(Errors.TOPIC_AUTHORIZATION_FAILED,
                        "not authorized to alter topic '" + name + "'"));
            } else {
                List<List<Integer>> assignments = assignments(topic);
                answer = validateOnly ? controller.validateCreatePartitions(name, topic.count(), assignments)
                        : controller.createPartitions(name, topic.count(), assignments);
            }
            outcomes.add(ControllerErrors.outcome(answer, timeoutMs));
        }
        return ControllerErrors.all(outcomes).thenApply(answers -> {
            CreatePartitionsResponse response = new CreatePartitionsResponse();
            for (int i = 0; i < answers.size(); i++) {
                response.results().add(new CreatePartitionsTopicResult()
                        .setName(names.get(i))
                        .setErrorCode(answers.get(i).errorCode())
                        .setErrorMessage(answers.get(i).errorMessage()));
            }
            return HandlerResponse.of(response);
        });
    }

    /** The replicas of each new partition in order, or empty to let the controller place them. */
    private static List<List<Integer>> assignments(CreatePartitionsTopic topic) {
        List<CreatePartitionsAssignment> given = topic.assignments();
        if (given == null) {
            return List.of();
        }
        List<List<Integer>> assignments = new ArrayList<>(given.size());
        for (CreatePartitionsAssignment assignment : given) {
            assignments.add(List.copyOf(assignment.brokerIds()));
        }
        return assignments;
    }
}
