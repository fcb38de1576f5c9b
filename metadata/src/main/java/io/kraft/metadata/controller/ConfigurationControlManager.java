package io.kraft.metadata.controller;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.ConfigurationsImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Topic and broker configuration overrides. Topic configs are validated with the config module's topic
 * definition (unknown key or bad value: INVALID_CONFIG); broker configs are validated when they are log
 * settings the config module knows, and accepted as given otherwise (other components own those keys). The current
 * overrides are read from the {@link SpeculativeMetadata}; the manager keeps no state of its own.
 */
public final class ConfigurationControlManager {
    private static final ConfigDef BROKER_LOG_DEFINITION = LogConfigs.definition();

    private final TopicConfigResolver topicConfigs;
    private final SpeculativeMetadata metadata;

    ConfigurationControlManager(TopicConfigResolver topicConfigs, SpeculativeMetadata metadata) {
        this.topicConfigs = topicConfigs;
        this.metadata = metadata;
    }

    /** Checks a new topic's config overrides. */
    public ApiError validateTopicConfigs(Map<String, String> topicConfigOverrides) {
        try {
            topicConfigs.resolve(topicConfigOverrides);
            return ApiError.NONE;
        } catch (ConfigException e) {
            return ApiError.of(Errors.INVALID_CONFIG, e.getMessage());
        }
    }

    /** The records setting a new topic's config overrides, in key order. */
    public List<MetadataRecord> topicConfigRecords(String topicName, Map<String, String> topicConfigOverrides) {
        List<MetadataRecord> records = new ArrayList<>();
        new TreeMap<>(topicConfigOverrides).forEach((key, value) ->
                records.add(record(ConfigResource.topic(topicName), key, Optional.of(value))));
        return records;
    }

    /** The records deleting every override of a resource (a deleted topic's configs go with it). */
    public List<MetadataRecord> deleteAllRecords(ConfigResource resource) {
        List<MetadataRecord> records = new ArrayList<>();
        new TreeMap<>(configs(resource)).keySet().forEach(key -> records.add(record(resource, key, Optional.empty())));
        return records;
    }

    /**
     * Sets (value present) or deletes (value empty) keys of one resource, validating the result.
     *
     * @param resourceExists whether the topic exists (ignored for brokers: any broker id may be configured)
     */
    public ControllerResult<Void> incrementalAlterConfigs(ConfigResource resource,
                                                          Map<String, Optional<String>> changes,
                                                          boolean resourceExists) {
        for (String key : changes.keySet()) {
            if (key.isEmpty()) {
                return ControllerResult.failed(Errors.INVALID_CONFIG, "Empty configuration key for " + resource);
            }
        }
        Map<String, String> merged = new HashMap<>(configs(resource));
        changes.forEach((key, value) -> {
            if (value.isPresent()) {
                merged.put(key, value.get());
            } else {
                merged.remove(key);
            }
        });
        ApiError error = switch (resource.type()) {
            case TOPIC -> resourceExists ? validateTopicConfigs(merged)
                    : ApiError.of(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic " + resource.name() + " does not exist");
            case BROKER -> validateBrokerConfigs(resource.name(), merged);
        };
        if (!error.isSuccess()) {
            return ControllerResult.failed(error.error(), error.message());
        }
        List<MetadataRecord> records = new ArrayList<>();
        Map<String, String> current = metadata.configs(resource);
        new TreeMap<>(changes).forEach((key, value) -> {
            if (!value.equals(Optional.ofNullable(current.get(key)))) {
                records.add(record(resource, key, value));
            }
        });
        return ControllerResult.of(records, null);
    }

    private static ApiError validateBrokerConfigs(String brokerName, Map<String, String> brokerConfigs) {
        if (!brokerName.isEmpty() && !brokerName.chars().allMatch(Character::isDigit)) {
            return ApiError.of(Errors.INVALID_REQUEST, "Broker config resource " + brokerName
                    + " is neither a broker id nor empty (the cluster default)");
        }
        Map<String, String> logSettings = new HashMap<>();
        brokerConfigs.forEach((key, value) -> {
            if (BROKER_LOG_DEFINITION.contains(key)) {
                logSettings.put(key, value);
            }
        });
        try {
            BROKER_LOG_DEFINITION.parse(logSettings, ConfigSource.DYNAMIC_BROKER_CONFIG);
            return ApiError.NONE;
        } catch (ConfigException e) {
            return ApiError.of(Errors.INVALID_CONFIG, e.getMessage());
        }
    }

    private static MetadataRecord record(ConfigResource resource, String key, Optional<String> value) {
        ConfigRecord.Builder builder = ConfigRecord.newBuilder()
                .setResourceType(resource.type().toProto())
                .setResourceName(resource.name())
                .setName(key);
        value.ifPresent(builder::setValue);
        return MetadataRecords.of(builder.build());
    }

    /** The resource's overrides (empty if none). */
    public Map<String, String> configs(ConfigResource resource) {
        return Map.copyOf(metadata.configs(resource));
    }

    public ConfigurationsImage image() {
        return metadata.image(MetadataProvenance.EMPTY).configs();
    }
}
