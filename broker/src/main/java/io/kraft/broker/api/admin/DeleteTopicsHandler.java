package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.DeleteTopicsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers DeleteTopics (v1-6) through the active {@link Controller}: by name (v1-5 topic_names,
 * v6 topics with a name) or by id (v6 topics without a name, resolved through the controller's image).
 */
public final class DeleteTopicsHandler implements LegacyRequestHandler {
    private static final UUID ZERO_UUID = new UUID(0L, 0L);

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
    public Struct handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        long timeoutMs = body.getInt(body.field("timeout_ms"));
        List<Target> targets = new ArrayList<>();
        if (request.version() >= 6) {
            for (Struct topic : body.getStructs(body.field("topics"))) {
                targets.add(new Target(topic.getString(topic.field("name")), topic.getUuid(topic.field("topic_id"))));
            }
        } else {
            for (Object name : body.getList(body.field("topic_names"))) {
                targets.add(new Target((String) name, ZERO_UUID));
            }
        }
        List<String> names = new ArrayList<>();
        List<CompletableFuture<UUID>> answers = new ArrayList<>();
        for (Target target : targets) {
            String name = target.name();
            if (name == null || name.isEmpty()) {
                TopicImage topic = target.topicId() == null ? null : images.get().topics().topic(target.topicId());
                if (topic == null) {
                    names.add(null);
                    answers.add(CompletableFuture.failedFuture(new ControllerException(Errors.UNKNOWN_TOPIC_ID,
                            "no topic has id " + target.topicId())));
                    continue;
                }
                name = topic.name();
            }
            names.add(name);
            answers.add(controller.deleteTopic(name));
        }
        Struct response = DeleteTopicsMessages.RESPONSE.newStruct();
        for (int i = 0; i < answers.size(); i++) {
            Outcome<UUID> outcome = ControllerErrors.await(answers.get(i), timeoutMs);
            Struct out = response.addStruct(response.field("responses"));
            // Before v6 the name is not nullable: an unresolved id cannot occur there, names always come in.
            out.set(out.field("name"), names.get(i));
            out.set(out.field("topic_id"), outcome.succeeded() ? outcome.value() : targets.get(i).topicIdOrZero());
            out.setShort(out.field("error_code"), outcome.errorCode());
            out.set(out.field("error_message"), outcome.errorMessage());
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
