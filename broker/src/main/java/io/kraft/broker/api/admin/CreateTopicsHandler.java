package io.kraft.broker.api.admin;

import io.kraft.broker.config.ConfigDescriber;
import io.kraft.broker.config.DescribedConfig;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.CreateTopicsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.config.ConfigException;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.CreateTopicResult;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers CreateTopics (v2-7) by forwarding every topic to the active {@link Controller}; each
 * topic succeeds or fails on its own. validate_only runs the controller's dry run (same checks and placement,
 * nothing created). From v5 a successful answer carries the topic's configs with their sources. A name given
 * twice in one request fails both times with INVALID_REQUEST.
 */
public final class CreateTopicsHandler implements LegacyRequestHandler {
    private static final UUID ZERO_UUID = new UUID(0L, 0L);

    private final Controller controller;
    private final Supplier<MetadataImage> images;
    private final ConfigDescriber describer;

    public CreateTopicsHandler(Controller controller, Supplier<MetadataImage> images, EffectiveConfigs configs) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.images = Objects.requireNonNull(images, "images");
        this.describer = new ConfigDescriber(configs);
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.CREATE_TOPICS;
    }

    @Override
    public Struct handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        long timeoutMs = body.getInt(body.field("timeout_ms"));
        boolean validateOnly = body.getBoolean(body.field("validate_only"));
        Struct response = CreateTopicsMessages.RESPONSE.newStruct();
        List<Struct> topics = body.getStructs(body.field("topics"));
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new HashSet<>();
        for (Struct topic : topics) {
            String name = topic.getString(topic.field("name"));
            if (!seen.add(name)) {
                duplicates.add(name);
            }
        }
        List<String> names = new ArrayList<>();
        List<CompletableFuture<CreateTopicResult>> answers = new ArrayList<>();
        List<CreateTopicRequest> creations = new ArrayList<>();
        for (Struct topic : topics) {
            String name = topic.getString(topic.field("name"));
            names.add(name);
            CreateTopicRequest creation = toControllerRequest(topic, name);
            creations.add(creation);
            if (duplicates.contains(name)) {
                // Kafka creates none of a name given twice: which of the two was meant is unknown.
                answers.add(CompletableFuture.failedFuture(new ControllerException(
                        Errors.INVALID_REQUEST, "topic '" + name + "' appears more than once in the request")));
            } else if (validateOnly) {
                answers.add(controller.validateCreateTopic(creation));
            } else {
                answers.add(controller.createTopic(creation));
            }
        }
        MetadataImage image = images.get();
        for (int i = 0; i < answers.size(); i++) {
            Outcome<CreateTopicResult> outcome = ControllerErrors.await(answers.get(i), timeoutMs);
            Struct out = response.addStruct(response.field("topics"));
            out.set(out.field("name"), names.get(i));
            out.setShort(out.field("error_code"), outcome.errorCode());
            out.set(out.field("error_message"), outcome.errorMessage());
            if (outcome.succeeded()) {
                out.set(out.field("topic_id"), outcome.value().topicId());
                out.setInt(out.field("num_partitions"), outcome.value().numPartitions());
                out.setShort(out.field("replication_factor"), (short) outcome.value().replicationFactor());
                addConfigs(out, image, creations.get(i).configs());
            } else {
                out.set(out.field("topic_id"), ZERO_UUID);
            }
        }
        return response;
    }

    private void addConfigs(Struct out, MetadataImage image, Map<String, String> overrides) {
        List<DescribedConfig> configs;
        try {
            configs = describer.topic(image, overrides);
        } catch (ConfigException e) {
            return; // the controller accepted them, so this broker's view is stale; the configs stay unreported
        }
        for (DescribedConfig config : configs) {
            Struct entry = out.addStruct(out.field("configs"));
            entry.set(entry.field("name"), config.name());
            entry.set(entry.field("value"), config.value());
            entry.setBoolean(entry.field("read_only"), config.readOnly());
            entry.setByte(entry.field("config_source"), config.source().id());
            entry.setBoolean(entry.field("is_sensitive"), config.sensitive());
        }
    }

    private static CreateTopicRequest toControllerRequest(Struct topic, String name) {
        Map<Integer, List<Integer>> assignments = new HashMap<>();
        for (Struct assignment : topic.getStructs(topic.field("assignments"))) {
            List<Integer> brokers = assignment.getList(assignment.field("broker_ids"));
            assignments.put(assignment.getInt(assignment.field("partition_index")), List.copyOf(brokers));
        }
        Map<String, String> configs = new HashMap<>();
        for (Struct config : topic.getStructs(topic.field("configs"))) {
            String value = config.getString(config.field("value"));
            // A null value means "use the default", which is what leaving the key out does.
            if (value != null) {
                configs.put(config.getString(config.field("name")), value);
            }
        }
        return new CreateTopicRequest(name, topic.getInt(topic.field("num_partitions")),
                topic.getShort(topic.field("replication_factor")), assignments, configs);
    }
}
