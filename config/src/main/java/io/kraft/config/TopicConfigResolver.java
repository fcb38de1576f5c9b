package io.kraft.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Gives a topic's effective log settings from the broker's settings and the topic's overrides.
 * A set override wins (source {@link ConfigSource#DYNAMIC_TOPIC_CONFIG}); otherwise the broker's
 * effective value is used with the source of the broker key that supplied it. Unknown topic keys are
 * rejected, as Kafka rejects them with INVALID_CONFIG. Immutable and thread-safe.
 */
public final class TopicConfigResolver {
    private final BrokerLogSettings broker;
    private final ConfigDef definition;

    public TopicConfigResolver(BrokerLogSettings broker) {
        this.broker = Objects.requireNonNull(broker, "broker");
        this.definition = TopicConfigs.definition(broker);
    }

    /** The topic-level definition, its defaults being this broker's effective values. */
    public ConfigDef definition() {
        return definition;
    }

    /**
     * Resolves a topic's settings.
     *
     * @param overrides the topic's raw overrides, e.g. from CreateTopics or the metadata log
     * @throws UnknownConfigException if an override names no topic setting
     * @throws ConfigException        if an override value is invalid
     */
    public TopicLogSettings resolve(Map<String, String> overrides) {
        Objects.requireNonNull(overrides, "overrides");
        // Sorted so that with several unknown keys the one reported does not depend on map order.
        overrides.keySet().stream().sorted()
                .filter(key -> !definition.contains(key))
                .findFirst()
                .ifPresent(key -> {
                    throw new UnknownConfigException("topic", key);
                });
        ParsedConfig parsed = definition.parse(overrides, ConfigSource.DYNAMIC_TOPIC_CONFIG);
        Map<String, ConfigValue> entries = new LinkedHashMap<>();
        for (ConfigValue described : parsed.describe()) {
            entries.put(described.name(), parsed.isSet(described.name())
                    ? described
                    : broker.topicDefaults().entry(described.name()));
        }
        return new TopicLogSettings(entries, overrides);
    }
}
