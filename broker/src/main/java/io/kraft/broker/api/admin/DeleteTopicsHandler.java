package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DeleteTopicsRequest;
import io.kraft.broker.protocol.message.DeleteTopicsRequest.DeleteTopicState;
import io.kraft.broker.protocol.message.DeleteTopicsResponse;
import io.kraft.broker.protocol.message.DeleteTopicsResponse.DeletableTopicResult;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers DeleteTopics (v1-6) through the active {@link Controller}: by name (v1-5 topic_names,
 * v6 topics with a name) or by id (v6 topics without a name, resolved through this broker's image). The answer
 * comes when the controller has answered every topic or the request's timeout_ms has passed; no handler thread
 * waits meanwhile.
 */
public final class DeleteTopicsHandler implements AsyncRequestHandler<DeleteTopicsRequest, DeleteTopicsResponse> {
    private static final UUID ZERO_UUID = new UUID(0L, 0L);
    /** The first DeleteTopics version that names topics by name or id (topics) instead of by name (topic_names). */
    private static final short TOPIC_IDS_VERSION = 6;

    private final Controller controller;
    private final Supplier<MetadataImage> images;

    public DeleteTopicsHandler(Controller controller, Supplier<MetadataImage> images) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.images = Objects.requireNonNull(images, "images");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DELETE_TOPICS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<DeleteTopicsRequest> request) {
        DeleteTopicsRequest body = request.body();
        long timeoutMs = body.timeoutMs();
        List<Target> targets = new ArrayList<>();
        if (request.version() >= TOPIC_IDS_VERSION) {
            for (DeleteTopicState topic : body.topics()) {
                targets.add(new Target(topic.name(), topic.topicId()));
            }
        } else {
            for (String name : body.topicNames()) {
                targets.add(new Target(name, ZERO_UUID));
            }
        }
        List<String> names = new ArrayList<>(targets.size());
        List<CompletableFuture<Outcome<UUID>>> outcomes = new ArrayList<>(targets.size());
        for (Target target : targets) {
            String name = target.name();
            CompletableFuture<UUID> answer;
            if (name == null || name.isEmpty()) {
                TopicImage topic = target.topicId() == null ? null : images.get().topics().topic(target.topicId());
                if (topic == null) {
                    names.add(null);
                    answer = CompletableFuture.failedFuture(new ControllerException(Errors.UNKNOWN_TOPIC_ID,
                            "no topic has id " + target.topicId()));
                    outcomes.add(ControllerErrors.outcome(answer, timeoutMs));
                    continue;
                }
                name = topic.name();
            }
            names.add(name);
            if (!context.authorize(AclOperation.DELETE, ResourceType.TOPIC, name)) {
                outcomes.add(ControllerErrors.outcome(CompletableFuture.failedFuture(new ControllerException(
                        Errors.TOPIC_AUTHORIZATION_FAILED, "not authorized to delete topic '" + name + "'")), timeoutMs));
                continue;
            }
            outcomes.add(ControllerErrors.outcome(controller.deleteTopic(name), timeoutMs));
        }
        return ControllerErrors.all(outcomes).thenApply(answers -> HandlerResponse.of(response(targets, names,
                answers)));
    }

    private static DeleteTopicsResponse response(List<Target> targets, List<String> names,
                                                 List<Outcome<UUID>> answers) {
        DeleteTopicsResponse response = new DeleteTopicsResponse();
        for (int i = 0; i < answers.size(); i++) {
            Outcome<UUID> outcome = answers.get(i);
            // Before v6 the name is not nullable: an unresolved id cannot occur there, names always come in.
            response.responses().add(new DeletableTopicResult()
                    .setName(names.get(i))
                    .setTopicId(outcome.succeeded() ? outcome.value() : targets.get(i).topicIdOrZero())
                    .setErrorCode(outcome.errorCode())
                    .setErrorMessage(outcome.errorMessage()));
        }
        return response;
    }

    /** One topic to delete, named or identified. */
    private record Target(String name, UUID topicId) {
        UUID topicIdOrZero() {
            return topicId == null ? ZERO_UUID : topicId;
        }
    }
}
