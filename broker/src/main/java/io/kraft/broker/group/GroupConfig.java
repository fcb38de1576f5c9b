package io.kraft.broker.group;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.ConfigType.SHORT;
import static io.kraft.config.Importance.HIGH;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.util.Map;

/**
 * The group coordinator's settings under Kafka's names, with Kafka's defaults.
 *
 * @param minSessionTimeoutMs        group.min.session.timeout.ms: shortest session a member may ask for
 * @param maxSessionTimeoutMs        group.max.session.timeout.ms: longest session a member may ask for
 * @param initialRebalanceDelayMs    group.initial.rebalance.delay.ms: how long the first rebalance of an empty
 *                                   group waits for more members (extended per new member, up to the rebalance timeout)
 * @param maxGroupSize               group.max.size: members a group may hold
 * @param offsetMetadataMaxBytes     offset.metadata.max.bytes: longest metadata string a commit may carry
 * @param offsetsRetentionMs         offsets.retention.minutes (as ms): how long offsets of an empty group are kept
 * @param offsetsRetentionCheckIntervalMs offsets.retention.check.interval.ms: how often expiry runs
 * @param offsetsTopicPartitions     offsets.topic.num.partitions of {@code __consumer_offsets}
 * @param offsetsTopicReplicationFactor offsets.topic.replication.factor (capped to the live brokers at creation)
 * @param offsetsTopicSegmentBytes   offsets.topic.segment.bytes of {@code __consumer_offsets}
 * @param offsetsCommitTimeoutMs     offsets.commit.timeout.ms: how long a commit waits for its record to commit
 */
public record GroupConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int initialRebalanceDelayMs,
                          int maxGroupSize, int offsetMetadataMaxBytes, long offsetsRetentionMs,
                          long offsetsRetentionCheckIntervalMs, int offsetsTopicPartitions,
                          short offsetsTopicReplicationFactor, int offsetsTopicSegmentBytes,
                          int offsetsCommitTimeoutMs) {
    public static final String GROUP_MIN_SESSION_TIMEOUT_MS = "group.min.session.timeout.ms";
    public static final String GROUP_MAX_SESSION_TIMEOUT_MS = "group.max.session.timeout.ms";
    public static final String GROUP_INITIAL_REBALANCE_DELAY_MS = "group.initial.rebalance.delay.ms";
    public static final String GROUP_MAX_SIZE = "group.max.size";
    public static final String OFFSET_METADATA_MAX_BYTES = "offset.metadata.max.bytes";
    public static final String OFFSETS_RETENTION_MINUTES = "offsets.retention.minutes";
    public static final String OFFSETS_RETENTION_CHECK_INTERVAL_MS = "offsets.retention.check.interval.ms";
    public static final String OFFSETS_TOPIC_NUM_PARTITIONS = "offsets.topic.num.partitions";
    public static final String OFFSETS_TOPIC_REPLICATION_FACTOR = "offsets.topic.replication.factor";
    public static final String OFFSETS_TOPIC_SEGMENT_BYTES = "offsets.topic.segment.bytes";
    public static final String OFFSETS_COMMIT_TIMEOUT_MS = "offsets.commit.timeout.ms";

    public GroupConfig {
        requireAtLeast(GROUP_MIN_SESSION_TIMEOUT_MS, minSessionTimeoutMs, 0);
        requireAtLeast(GROUP_MAX_SESSION_TIMEOUT_MS, maxSessionTimeoutMs, minSessionTimeoutMs);
        requireAtLeast(GROUP_INITIAL_REBALANCE_DELAY_MS, initialRebalanceDelayMs, 0);
        requireAtLeast(GROUP_MAX_SIZE, maxGroupSize, 1);
        requireAtLeast(OFFSET_METADATA_MAX_BYTES, offsetMetadataMaxBytes, 0);
        requireAtLeast(OFFSETS_RETENTION_MINUTES, offsetsRetentionMs, 60_000);
        requireAtLeast(OFFSETS_RETENTION_CHECK_INTERVAL_MS, offsetsRetentionCheckIntervalMs, 1);
        requireAtLeast(OFFSETS_TOPIC_NUM_PARTITIONS, offsetsTopicPartitions, 1);
        requireAtLeast(OFFSETS_TOPIC_REPLICATION_FACTOR, offsetsTopicReplicationFactor, 1);
        requireAtLeast(OFFSETS_TOPIC_SEGMENT_BYTES, offsetsTopicSegmentBytes, 1);
        requireAtLeast(OFFSETS_COMMIT_TIMEOUT_MS, offsetsCommitTimeoutMs, 1);
    }

    /**
     * The coordinator's keys, so a node's configuration knows them (types, defaults, docs), with Kafka's validators;
     * the minimum session timeout, initial delay and metadata size are also kept from going negative.
     */
    public static ConfigDef definition() {
        return new ConfigDef()
                .define(GROUP_MIN_SESSION_TIMEOUT_MS, INT, 6_000, atLeast(0), MEDIUM,
                        "The shortest session timeout a group member may ask for.")
                .define(GROUP_MAX_SESSION_TIMEOUT_MS, INT, 1_800_000, atLeast(0), MEDIUM,
                        "The longest session timeout a group member may ask for.")
                .define(GROUP_INITIAL_REBALANCE_DELAY_MS, INT, 3_000, atLeast(0), MEDIUM,
                        "How long the first rebalance of an empty group waits for more members to join.")
                .define(GROUP_MAX_SIZE, INT, Integer.MAX_VALUE, atLeast(1), MEDIUM,
                        "The most members a group may hold.")
                .define(OFFSET_METADATA_MAX_BYTES, INT, 4_096, atLeast(0), HIGH,
                        "The longest metadata string an offset commit may carry.")
                .define(OFFSETS_RETENTION_MINUTES, INT, 10_080, atLeast(1), HIGH,
                        "How long the committed offsets of a group without members are kept.")
                .define(OFFSETS_RETENTION_CHECK_INTERVAL_MS, LONG, 600_000L, atLeast(1), HIGH,
                        "How often expired committed offsets are removed.")
                .define(OFFSETS_TOPIC_NUM_PARTITIONS, INT, 50, atLeast(1), HIGH,
                        "The number of partitions of __consumer_offsets (fixed once it exists).")
                .define(OFFSETS_TOPIC_REPLICATION_FACTOR, SHORT, (short) 3, atLeast(1), HIGH,
                        "The replication factor of __consumer_offsets, capped to the live brokers at creation.")
                .define(OFFSETS_TOPIC_SEGMENT_BYTES, INT, 104_857_600, atLeast(1), HIGH,
                        "The segment size of __consumer_offsets.")
                .define(OFFSETS_COMMIT_TIMEOUT_MS, INT, 5_000, atLeast(1), HIGH,
                        "How long an offset commit waits for its record to be replicated.");
    }

    /** Kafka's defaults. */
    public static GroupConfig defaults() {
        return fromProperties(Map.of());
    }

    /**
     * Reads the settings from a node's Kafka-named properties; absent ones take Kafka's defaults.
     *
     * @throws io.kraft.config.ConfigException naming the key of a value that is not a number or out of its range
     * @throws InvalidGroupConfigException when the maximum session timeout is below the minimum
     */
    public static GroupConfig fromProperties(Map<String, String> props) {
        ParsedConfig config = definition().parseOwn(props, ConfigSource.STATIC_BROKER_CONFIG);
        return new GroupConfig(
                config.getInt(GROUP_MIN_SESSION_TIMEOUT_MS),
                config.getInt(GROUP_MAX_SESSION_TIMEOUT_MS),
                config.getInt(GROUP_INITIAL_REBALANCE_DELAY_MS),
                config.getInt(GROUP_MAX_SIZE),
                config.getInt(OFFSET_METADATA_MAX_BYTES),
                config.getInt(OFFSETS_RETENTION_MINUTES) * 60_000L,
                config.getLong(OFFSETS_RETENTION_CHECK_INTERVAL_MS),
                config.getInt(OFFSETS_TOPIC_NUM_PARTITIONS),
                config.getShort(OFFSETS_TOPIC_REPLICATION_FACTOR),
                config.getInt(OFFSETS_TOPIC_SEGMENT_BYTES),
                config.getInt(OFFSETS_COMMIT_TIMEOUT_MS));
    }

    private static void requireAtLeast(String name, long value, long min) {
        if (value < min) {
            throw new InvalidGroupConfigException(name + " must be at least " + min + ", got " + value);
        }
    }
}
