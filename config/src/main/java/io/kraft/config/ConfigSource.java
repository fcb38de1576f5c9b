package io.kraft.config;

/**
 * Where a configuration value came from, with the ids DescribeConfigs (v1+) puts on the wire for
 * a config entry's source and synonyms (KIP-226).
 */
public enum ConfigSource {
    UNKNOWN(0),
    /** A per-topic override stored in the metadata log. */
    DYNAMIC_TOPIC_CONFIG(1),
    /** A per-broker dynamic setting stored in the metadata log. */
    DYNAMIC_BROKER_CONFIG(2),
    /** A cluster-wide dynamic default for all brokers stored in the metadata log. */
    DYNAMIC_DEFAULT_BROKER_CONFIG(3),
    /** The broker's properties file or its command-line overrides. */
    STATIC_BROKER_CONFIG(4),
    /** The built-in default of the definition; nothing set it. */
    DEFAULT_CONFIG(5),
    DYNAMIC_BROKER_LOGGER_CONFIG(6),
    CLIENT_METRICS_CONFIG(7),
    GROUP_CONFIG(8);

    private final byte id;

    ConfigSource(int id) {
        this.id = (byte) id;
    }

    /** The id of this source in the Kafka protocol. */
    public byte id() {
        return id;
    }

    /** The source with the given protocol id. */
    public static ConfigSource forId(byte id) {
        for (ConfigSource source : values()) {
            if (source.id == id) {
                return source;
            }
        }
        throw new IllegalArgumentException("Unknown config source id " + id);
    }
}
