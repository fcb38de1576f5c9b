package io.kraft.broker.group.share.state;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.util.Map;

/** The {@code share.coordinator.*} broker settings of durable share-partition state (KIP-932), Kafka's defaults. */
public record ShareCoordinatorConfig(int stateTopicPartitions, int stateTopicReplicationFactor,
                                     int stateTopicSegmentBytes, int writeTimeoutMs) {
    public static final String STATE_TOPIC_NUM_PARTITIONS = "share.coordinator.state.topic.num.partitions";
    public static final String STATE_TOPIC_REPLICATION_FACTOR = "share.coordinator.state.topic.replication.factor";
    public static final String STATE_TOPIC_SEGMENT_BYTES = "share.coordinator.state.topic.segment.bytes";
    public static final String WRITE_TIMEOUT_MS = "share.coordinator.write.timeout.ms";

    public ShareCoordinatorConfig {
        if (stateTopicPartitions < 1 || stateTopicReplicationFactor < 1 || stateTopicSegmentBytes < 1
                || writeTimeoutMs < 1) {
            throw new IllegalArgumentException("the share.coordinator.* settings must be positive");
        }
    }

    /** The keys, so a node's configuration knows them, with Kafka's validators. */
    public static ConfigDef definition() {
        return new ConfigDef()
                .define(STATE_TOPIC_NUM_PARTITIONS, INT, 50, atLeast(1), MEDIUM,
                        "The partitions of __share_group_state (fixed once the topic exists).")
                .define(STATE_TOPIC_REPLICATION_FACTOR, INT, 3, atLeast(1), MEDIUM,
                        "The replication factor of __share_group_state, capped to the live brokers at creation.")
                .define(STATE_TOPIC_SEGMENT_BYTES, INT, 104_857_600, atLeast(1), MEDIUM,
                        "The segment size of __share_group_state.")
                .define(WRITE_TIMEOUT_MS, INT, 5_000, atLeast(1), MEDIUM,
                        "How long a share-partition state write may wait for its replicas.");
    }

    /**
     * Reads the settings from a node's Kafka-named properties; absent ones take Kafka's defaults.
     *
     * @throws io.kraft.config.ConfigException naming the key of a value that is not a number or out of its range
     */
    public static ShareCoordinatorConfig fromProperties(Map<String, String> props) {
        ParsedConfig config = definition().parseOwn(props, ConfigSource.STATIC_BROKER_CONFIG);
        return new ShareCoordinatorConfig(config.getInt(STATE_TOPIC_NUM_PARTITIONS),
                config.getInt(STATE_TOPIC_REPLICATION_FACTOR), config.getInt(STATE_TOPIC_SEGMENT_BYTES),
                config.getInt(WRITE_TIMEOUT_MS));
    }
}
