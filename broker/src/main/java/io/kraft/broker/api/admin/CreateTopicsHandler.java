package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.config.ConfigDescriber;
import io.kraft.broker.config.DescribedConfig;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.CreateTopicsRequest;
import io.kraft.broker.protocol.message.CreateTopicsRequest.CreatableReplicaAssignment;
import io.kraft.broker.protocol.message.CreateTopicsRequest.CreatableTopic;
import io.kraft.broker.protocol.message.CreateTopicsRequest.CreatableTopicConfig;
import io.kraft.broker.protocol.message.CreateTopicsResponse;
import io.kraft.broker.protocol.message.CreateTopicsResponse.CreatableTopicConfigs;
import io.kraft.broker.protocol.message.CreateTopicsResponse.CreatableTopicResult;
import io.kraft.config.ConfigException;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.CreateTopicResult;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
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
 * twice in one request fails both times with INVALID_REQUEST. The answer comes when the controller has answered
 * every topic or the request's timeout_ms has passed; no handler thread waits meanwhile.
 */
public final class CreateTopicsHandler implements AsyncRequestHandler<CreateTopicsRequest, CreateTopicsResponse> {
    private static final UUID ZERO_UUID = new UUID(0L, 0L);
    /** The first CreateTopics version whose answer reports the topic's configs. */
    private static final short CONFIGS_VERSION = 5;

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
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<CreateTopicsRequest> request) {
        CreateTopicsRequest body = request.body();
        long timeoutMs = body.timeoutMs();
        boolean validateOnly = body.validateOnly();
        List<CreatableTopic> topics = body.topics();
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new HashSet<>();
        for (CreatableTopic topic : topics) {
            if (!seen.add(topic.name())) {
                duplicates.add(topic.name());
            }
        }
        // CREATE on the cluster covers every topic; otherwise each topic needs its own (Kafka's rule).
        boolean clusterCreate = !context.authorizationEnabled() || context.authorizeCluster(AclOperation.CREATE);
        List<CreateTopicRequest> creations = new ArrayList<>(topics.size());
        List<CompletableFuture<Outcome<CreateTopicResult>>> outcomes = new ArrayList<>(topics.size());
        for (CreatableTopic topic : topics) {
            CreateTopicRequest creation = toControllerRequest(topic);
            creations.add(creation);
            CompletableFuture<CreateTopicResult> answer;
            if (!clusterCreate && !context.authorize(AclOperation.CREATE, ResourceType.TOPIC, creation.name())) {
                answer = CompletableFuture.failedFuture(new ControllerException(Errors.TOPIC_AUTHORIZATION_FAILED,
                        "not authorized to create topic '" + creation.name() + "'"));
            } else if (duplicates.contains(creation.name())) {
                // Kafka creates none of a name given twice: which of the two was meant is unknown.
                answer = CompletableFuture.failedFuture(new ControllerException(
                        Errors.INVALID_REQUEST, "topic '" + creation.name() + "' appears more than once in the request"));
            } else if (validateOnly) {
                answer = controller.validateCreateTopic(creation);
            } else {
                answer = controller.createTopic(creation);
            }
            outcomes.add(ControllerErrors.outcome(answer, timeoutMs));
        }
        // Described here, on the handler thread, from the image of the request's time (as the answer always was):
        // the controller's answer then only picks which topics report them, and its thread does no broker work.
        List<List<DescribedConfig>> configs = new ArrayList<>(creations.size());
        if (request.version() >= CONFIGS_VERSION) {
            MetadataImage image = images.get();
            for (CreateTopicRequest creation : creations) {
                configs.add(describe(image, creation.configs()));
            }
        }
        return ControllerErrors.all(outcomes).thenApply(answers -> HandlerResponse.of(response(creations, answers,
                configs)));
    }

    private static CreateTopicsResponse response(List<CreateTopicRequest> creations,
                                                 List<Outcome<CreateTopicResult>> answers,
                                                 List<List<DescribedConfig>> configs) {
        CreateTopicsResponse response = new CreateTopicsResponse();
        for (int i = 0; i < answers.size(); i++) {
            Outcome<CreateTopicResult> outcome = answers.get(i);
            CreatableTopicResult out = new CreatableTopicResult()
                    .setName(creations.get(i).name())
                    .setErrorCode(outcome.errorCode())
                    .setErrorMessage(outcome.errorMessage());
            if (outcome.succeeded()) {
                out.setTopicId(outcome.value().topicId())
                        .setNumPartitions(outcome.value().numPartitions())
                        .setReplicationFactor((short) outcome.value().replicationFactor());
                if (!configs.isEmpty()) {
                    addConfigs(out, configs.get(i));
                }
            } else {
                out.setTopicId(ZERO_UUID);
            }
            response.topics().add(out);
        }
        return response;
    }

    /** The topic's configs as a v5+ answer reports them; none when this broker cannot resolve them. */
    private List<DescribedConfig> describe(MetadataImage image, Map<String, String> overrides) {
        try {
            return describer.topic(image, overrides);
        } catch (ConfigException e) {
            // The controller may still accept them, when this broker's view is stale; the configs stay unreported.
            return List.of();
        }
    }

    private static void addConfigs(CreatableTopicResult out, List<DescribedConfig> configs) {
        for (DescribedConfig config : configs) {
            out.configs().add(new CreatableTopicConfigs()
                    .setName(config.name())
                    .setValue(config.value())
                    .setReadOnly(config.readOnly())
                    .setConfigSource(config.source().id())
                    .setIsSensitive(config.sensitive()));
        }
    }

    /** The controller's form of one topic, copied out of the request body (valid only during handle). */
    private static CreateTopicRequest toControllerRequest(CreatableTopic topic) {
        Map<Integer, List<Integer>> assignments = new HashMap<>();
        for (CreatableReplicaAssignment assignment : topic.assignments()) {
            assignments.put(assignment.partitionIndex(), List.copyOf(assignment.brokerIds()));
        }
        Map<String, String> configs = new HashMap<>();
        for (CreatableTopicConfig config : topic.configs()) {
            // A null value means "use the default", which is what leaving the key out does.
            if (config.value() != null) {
                configs.put(config.name(), config.value());
            }
        }
        return new CreateTopicRequest(topic.name(), topic.numPartitions(), topic.replicationFactor(), assignments,
                configs);
    }
}
