package io.kraft.broker.group.share.state;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.Importance.MEDIUM;

import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.config.ConfigDef;
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

    /** The keys, so a node's configuration knows them. */
    public static ConfigDef definition() {
        return new ConfigDef()
                .define(STATE_TOPIC_NUM_PARTITIONS, INT, 50, MEDIUM,
                        "The partitions of __share_group_state (fixed once the topic exists).")
                .define(STATE_TOPIC_REPLICATION_FACTOR, INT, 3, MEDIUM,
                        "The replication factor of __share_group_state, capped to the live brokers at creation.")
                .define(STATE_TOPIC_SEGMENT_BYTES, INT, 104_857_600, MEDIUM,
                        "The segment size of __share_group_state.")
                .define(WRITE_TIMEOUT_MS, INT, 5_000, MEDIUM,
                        "How long a share-partition state write may wait for its replicas.");
    }

    public static ShareCoordinatorConfig fromProperties(Map<String, String> props) {
        return new ShareCoordinatorConfig(ConsumerGroupConfig.intProp(props, STATE_TOPIC_NUM_PARTITIONS, 50),
                ConsumerGroupConfig.intProp(props, STATE_TOPIC_REPLICATION_FACTOR, 3),
                ConsumerGroupConfig.intProp(props, STATE_TOPIC_SEGMENT_BYTES, 104_857_600),
                ConsumerGroupConfig.intProp(props, WRITE_TIMEOUT_MS, 5_000));
    }
}
