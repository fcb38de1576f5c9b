package io.kraft.broker.group.share;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;
import static io.kraft.config.Validator.between;
import static io.kraft.config.Validator.in;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.util.Map;

/**
 * The {@code group.share.*} broker settings of share groups (KIP-932) with Kafka's defaults, and
 * {@code share.auto.offset.reset}, which Kafka sets per group and this broker takes as the default of every group
 * (per-group configs are not served yet).
 */
public record ShareGroupConfig(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize, int maxGroups,
                               int recordLockDurationMs, int deliveryCountLimit, int partitionMaxRecordLocks,
                               boolean resetToEarliest) {
    public static final String SESSION_TIMEOUT_MS = "group.share.session.timeout.ms";
    public static final String HEARTBEAT_INTERVAL_MS = "group.share.heartbeat.interval.ms";
    public static final String MAX_SIZE = "group.share.max.size";
    public static final String MAX_GROUPS = "group.share.max.groups";
    public static final String RECORD_LOCK_DURATION_MS = "group.share.record.lock.duration.ms";
    public static final String DELIVERY_COUNT_LIMIT = "group.share.delivery.count.limit";
    public static final String PARTITION_MAX_RECORD_LOCKS = "group.share.partition.max.record.locks";
    public static final String AUTO_OFFSET_RESET = "share.auto.offset.reset";

    public ShareGroupConfig {
        if (sessionTimeoutMs < 1 || heartbeatIntervalMs < 1 || maxSize < 1 || maxGroups < 1 || recordLockDurationMs < 1
                || partitionMaxRecordLocks < 1) {
            throw new IllegalArgumentException("the group.share.* settings must be positive");
        }
        if (heartbeatIntervalMs >= sessionTimeoutMs) {
            throw new IllegalArgumentException(HEARTBEAT_INTERVAL_MS + " must be less than " + SESSION_TIMEOUT_MS);
        }
        if (deliveryCountLimit < 2 || deliveryCountLimit > 10) {
            throw new IllegalArgumentException(DELIVERY_COUNT_LIMIT + " must be between 2 and 10");
        }
    }

    /**
     * The keys, so a node's configuration knows them, with Kafka's validators (Kafka bounds some of them more
     * tightly, lock duration at 1 s and record locks at 100; tests here run with smaller ones).
     */
    public static ConfigDef definition() {
        return new ConfigDef()
                .define(SESSION_TIMEOUT_MS, INT, 45_000, atLeast(1), MEDIUM,
                        "How long a share group member may go without a heartbeat before it is removed.")
                .define(HEARTBEAT_INTERVAL_MS, INT, 5_000, atLeast(1), MEDIUM,
                        "How often share group members are told to heartbeat.")
                .define(MAX_SIZE, INT, 200, atLeast(1), MEDIUM, "The most members a share group holds.")
                .define(MAX_GROUPS, INT, 10, atLeast(1), MEDIUM, "The most share groups a broker coordinates.")
                .define(RECORD_LOCK_DURATION_MS, INT, 30_000, atLeast(1), MEDIUM,
                        "How long a share consumer holds the records it fetched before they may go to another.")
                .define(DELIVERY_COUNT_LIMIT, INT, 5, between(2, 10), MEDIUM,
                        "How many times a record is delivered before it is archived (2 to 10).")
                .define(PARTITION_MAX_RECORD_LOCKS, INT, 2_000, atLeast(1), MEDIUM,
                        "The most records of a share partition in flight at once.")
                .define(AUTO_OFFSET_RESET, STRING, "latest", in("earliest", "latest"), MEDIUM,
                        "Where a share group starts reading a partition it has no state for: earliest or latest.");
    }

    public static ShareGroupConfig defaults() {
        return fromProperties(Map.of());
    }

    /**
     * Reads the settings from a node's Kafka-named properties; absent ones take Kafka's defaults.
     *
     * @throws io.kraft.config.ConfigException naming the key of a value of the wrong type or out of its range
     * @throws IllegalArgumentException for a heartbeat interval not below the session timeout
     */
    public static ShareGroupConfig fromProperties(Map<String, String> props) {
        ParsedConfig config = definition().parseOwn(props, ConfigSource.STATIC_BROKER_CONFIG);
        return new ShareGroupConfig(config.getInt(SESSION_TIMEOUT_MS), config.getInt(HEARTBEAT_INTERVAL_MS),
                config.getInt(MAX_SIZE), config.getInt(MAX_GROUPS), config.getInt(RECORD_LOCK_DURATION_MS),
                config.getInt(DELIVERY_COUNT_LIMIT), config.getInt(PARTITION_MAX_RECORD_LOCKS),
                config.getString(AUTO_OFFSET_RESET).equals("earliest"));
    }

    /** The limits each share partition runs under. */
    public SharePartition.Settings partitionSettings() {
        return new SharePartition.Settings(deliveryCountLimit, recordLockDurationMs, partitionMaxRecordLocks);
    }
}
