package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.config.BrokerConfigs;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigType;
import io.kraft.config.ParsedConfig;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.broker.network.RequestContext;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Checks config changes against this broker's view (so validate_only needs no controller and errors name the
 * key at fault) and hands valid ones to the controller, which persists them as config records. Shared by
 * AlterConfigs and IncrementalAlterConfigs.
 */
final class ConfigUpdates {
    private final Controller controller;
    private final EffectiveConfigs configs;

    ConfigUpdates(Controller controller, EffectiveConfigs configs) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.configs = Objects.requireNonNull(configs, "configs");
    }

    /**
     * The resource a request names.
     *
     * @throws ControllerException INVALID_REQUEST for a type other than topic (2) or broker (4)
     */
    static ConfigResource resource(byte typeCode, String name) {
        for (ConfigResource.Type type : ConfigResource.Type.values()) {
            if (type.code() == typeCode) {
                return new ConfigResource(type, name);
            }
        }
        throw new ControllerException(Errors.INVALID_REQUEST, "Config resource type " + typeCode
                + " is not supported; only topics (2) and brokers (4) have configs here");
    }

    /** The resource's current overrides. */
    static Map<String, String> current(MetadataImage image, ConfigResource resource) {
        return image.configs().configs(resource);
    }

    /** The value type of a key of this kind of resource, or null when the key is unknown. */
    ConfigType type(MetadataImage image, ConfigResource resource, String key) {
        if (resource.type() == ConfigResource.Type.TOPIC) {
            ConfigDef definition = configs.topics(image).definition();
            return definition.contains(key) ? definition.key(key).type() : null;
        }
        return BrokerConfigs.definition().contains(key) ? BrokerConfigs.definition().key(key).type() : null;
    }

    /** The effective list value of a list-typed key (override, else the inherited default). */
    List<String> currentList(MetadataImage image, ConfigResource resource, String key) {
        if (resource.type() == ConfigResource.Type.TOPIC) {
            Object value = configs.topics(image).resolve(current(image, resource)).entry(key).value();
            return value == null ? List.of() : asList(value);
        }
        Map<String, String> own = current(image, resource);
        ParsedConfig parsed = resource.name().isEmpty()
                ? configs.parseWith(own, Map.of())
                : configs.parseWith(EffectiveConfigs.clusterDefaults(image), own);
        Object value = parsed.get(key);
        return value == null ? List.of() : asList(value);
    }

    /** Reads one resource's requested changes as key → new value (empty deletes); invalid ones throw. */
    @FunctionalInterface
    interface ChangeReader {
        Map<String, Optional<String>> read(MetadataImage image, ConfigResource target);
    }

    /**
     * One resource of an AlterConfigs-shaped request: its type code and name as the request gives them (the
     * response echoes them), and how to read its changes from the request body.
     */
    record Resource(byte type, String name, ChangeReader changes) {
    }

    /**
     * Serves an AlterConfigs-shaped request (AlterConfigs and IncrementalAlterConfigs share it): each resource
     * is read, checked and submitted on its own while the request body is valid (so call this from
     * {@code handle}); the answer holds one outcome per resource, in order, once the controller has answered
     * them all or {@code timeoutMs} has passed.
     */
    CompletableFuture<List<Outcome<Void>>> apply(RequestContext context, List<Resource> resources,
                                                 boolean validateOnly, MetadataImage image, long timeoutMs) {
        Set<String> duplicates = ConfigResourceKeys.duplicates(resources);
        List<CompletableFuture<Outcome<Void>>> outcomes = new ArrayList<>(resources.size());
        for (Resource resource : resources) {
            CompletableFuture<Void> answer;
            if (duplicates.contains(ConfigResourceKeys.key(resource.type(), resource.name()))) {
                answer = CompletableFuture.failedFuture(ConfigResourceKeys.duplicateError(resource.type(),
                        resource.name()));
            } else {
                try {
                    ConfigResource target = resource(resource.type(), resource.name());
                    authorize(context, target, AclOperation.ALTER_CONFIGS);
                    answer = submit(image, target, resource.changes().read(image, target), validateOnly);
                } catch (ControllerException e) {
                    answer = CompletableFuture.failedFuture(e);
                }
            }
            outcomes.add(ControllerErrors.outcome(answer, timeoutMs));
        }
        return ControllerErrors.all(outcomes);
    }

    /**
     * Checks {@code operation} (ALTER_CONFIGS or DESCRIBE_CONFIGS) on the resource: a topic's own ACLs, the cluster's
     * for broker configs, as Kafka does.
     *
     * @throws ControllerException TOPIC_AUTHORIZATION_FAILED or CLUSTER_AUTHORIZATION_FAILED when denied
     */
    static void authorize(RequestContext context, ConfigResource resource, AclOperation operation) {
        if (resource.type() == ConfigResource.Type.TOPIC) {
            if (!context.authorize(operation, ResourceType.TOPIC, resource.name())) {
                throw new ControllerException(Errors.TOPIC_AUTHORIZATION_FAILED, null);
            }
        } else if (!context.authorizeCluster(operation)) {
            throw new ControllerException(Errors.CLUSTER_AUTHORIZATION_FAILED, null);
        }
    }

    /**
     * Validates the changes (key → new value, empty to delete) and, unless {@code validateOnly}, asks the
     * controller to apply them. The answer fails with a {@link ControllerException} carrying the Kafka error.
     */
    CompletableFuture<Void> submit(MetadataImage image, ConfigResource resource, Map<String, Optional<String>> changes,
                                   boolean validateOnly) {
        try {
            validate(image, resource, changes);
        } catch (ControllerException e) {
            return CompletableFuture.failedFuture(e);
        }
        return validateOnly ? CompletableFuture.completedFuture(null)
                : controller.incrementalAlterConfigs(resource, changes);
    }

    private void validate(MetadataImage image, ConfigResource resource, Map<String, Optional<String>> changes) {
        Map<String, String> current = current(image, resource);
        Map<String, String> merged = new HashMap<>(current);
        changes.forEach((key, value) -> {
            if (value.isPresent()) {
                merged.put(key, value.get());
            } else {
                merged.remove(key);
            }
        });
        switch (resource.type()) {
            case TOPIC -> validateTopic(image, resource.name(), merged);
            case BROKER -> validateBroker(image, resource.name(), changes, current, merged);
        }
    }

    private void validateTopic(MetadataImage image, String topic, Map<String, String> merged) {
        if (topic.isEmpty()) {
            throw new ControllerException(Errors.INVALID_REQUEST, "A topic config resource needs a topic name");
        }
        if (image.topics().topic(topic) == null) {
            throw new ControllerException(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic " + topic + " does not exist");
        }
        try {
            configs.topics(image).resolve(merged);
        } catch (ConfigException e) {
            throw new ControllerException(Errors.INVALID_CONFIG, e.getMessage());
        }
    }

    private void validateBroker(MetadataImage image, String broker, Map<String, Optional<String>> changes,
                                Map<String, String> current, Map<String, String> merged) {
        if (!broker.isEmpty() && !broker.chars().allMatch(Character::isDigit)) {
            throw new ControllerException(Errors.INVALID_REQUEST, "Broker config resource '" + broker
                    + "' is neither a broker id nor empty (the cluster-wide default)");
        }
        for (String key : changes.keySet()) {
            // A deletion only removes: a leftover key, or one never set (a no-op, as in Kafka). Kafka's
            // kafka-reassign-partitions --verify deletes the replication throttle keys on every broker it touched.
            if (changes.get(key).isEmpty()) {
                continue;
            }
            if (!BrokerConfigs.definition().contains(key)) {
                throw new ControllerException(Errors.INVALID_CONFIG, "Unknown broker configuration " + key);
            }
            if (!BrokerConfigs.isDynamic(key)) {
                throw new ControllerException(Errors.INVALID_REQUEST, "Broker configuration " + key
                        + " cannot be changed while brokers run: set it in the node's properties file and restart");
            }
        }
        try {
            if (broker.isEmpty()) {
                configs.parseWith(merged, Map.of());
            } else {
                configs.parseWith(EffectiveConfigs.clusterDefaults(image), merged);
            }
        } catch (ConfigException e) {
            throw new ControllerException(Errors.INVALID_CONFIG, e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> asList(Object value) {
        return (List<String>) value;
    }
}
