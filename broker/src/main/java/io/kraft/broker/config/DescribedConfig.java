package io.kraft.broker.config;

import io.kraft.config.ConfigSource;
import io.kraft.config.ConfigType;
import java.util.List;

/**
 * One config entry as DescribeConfigs (and CreateTopics v5+) reports it.
 *
 * @param value         the effective value as text; null when unset or sensitive
 * @param synonyms      every place that sets this setting, the effective one first (KIP-226)
 * @param type          the value type, or null when this broker has no definition for the key
 * @param documentation one line, or null when unknown
 */
public record DescribedConfig(String name, String value, ConfigSource source, boolean readOnly, boolean sensitive,
                              List<Synonym> synonyms, ConfigType type, String documentation) {
    public DescribedConfig {
        synonyms = List.copyOf(synonyms);
    }

    /** A key and layer that supplies a value for the described setting. */
    public record Synonym(String name, String value, ConfigSource source) {
    }

    /** Kafka's DescribeConfigs config_type code (v3+) for this entry's type. */
    public byte typeCode() {
        if (type == null) {
            return 0;
        }
        return switch (type) {
            case BOOLEAN -> 1;
            case STRING -> 2;
            case INT -> 3;
            case SHORT -> 4;
            case LONG -> 5;
            case DOUBLE -> 6;
            case LIST -> 7;
            case PASSWORD -> 9;
        };
    }
}
