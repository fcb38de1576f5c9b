package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.CreatePartitionsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
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
 * controller's dry run. A topic named twice fails both times with INVALID_REQUEST, as in Kafka.
 */
public final class CreatePartitionsHandler implements LegacyRequestHandler {
    private final Controller controller;

    public CreatePartitionsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.CREATE_PARTITIONS;
    }

    @Override
    public Struct handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        long timeoutMs = body.getInt("timeout_ms");
        boolean validateOnly = body.getBoolean("validate_only");
        List<Struct> topics = body.getStructs("topics");
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new HashSet<>();
        for (Struct topic : topics) {
            String name = topic.getString("name");
            if (!seen.add(name)) {
                duplicates.add(name);
            }
        }
        List<CompletableFuture<Void>> answers = new ArrayList<>();
        for (Struct topic : topics) {
            String name = topic.getString("name");
            int count = topic.getInt("count");
            if (duplicates.contains(name)) {
                answers.add(CompletableFuture.failedFuture(new ControllerException(Errors.INVALID_REQUEST,
                        "Topic " + name + " appears more than once in the request")));
                continue;
            }
            List<List<Integer>> assignments = assignments(topic);
            answers.add(validateOnly ? controller.validateCreatePartitions(name, count, assignments)
                    : controller.createPartitions(name, count, assignments));
        }
        Struct response = CreatePartitionsMessages.RESPONSE.newStruct();
        for (int i = 0; i < topics.size(); i++) {
            Outcome<Void> outcome = ControllerErrors.await(answers.get(i), timeoutMs);
            Struct out = response.addStruct("results");
            out.set(out.field("name"), topics.get(i).getString("name"));
            out.setShort(out.field("error_code"), outcome.errorCode());
            out.set(out.field("error_message"), outcome.errorMessage());
        }
        return response;
    }

    /** The replicas of each new partition in order, or empty to let the controller place them. */
    private static List<List<Integer>> assignments(Struct topic) {
        List<Struct> given = topic.getStructs("assignments");
        if (given == null) {
            return List.of();
        }
        List<List<Integer>> assignments = new ArrayList<>(given.size());
        for (Struct assignment : given) {
            List<Integer> brokers = assignment.getList(assignment.field("broker_ids"));
            assignments.add(List.copyOf(brokers));
        }
        return assignments;
    }
}
