package io.kraft.broker.group.consumer;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LIST;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;
import static io.kraft.config.Validator.inIgnoringCase;
import static io.kraft.config.Validator.nonEmptyList;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code group.consumer.*} settings of consumer-protocol groups (KIP-848), with Kafka's defaults: a member's
 * session and heartbeat interval, the most members a group holds, and the server-side assignors (the first is
 * the default), and whether groups with members may change protocol.
 */
public record ConsumerGroupConfig(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize,
                                  List<PartitionAssignor> assignors, MigrationPolicy migrationPolicy) {
    public static final String SESSION_TIMEOUT_MS = "group.consumer.session.timeout.ms";
    public static final String HEARTBEAT_INTERVAL_MS = "group.consumer.heartbeat.interval.ms";
    public static final String MAX_SIZE = "group.consumer.max.size";
    public static final String ASSIGNORS = "group.consumer.assignors";
    public static final String MIGRATION_POLICY = "group.consumer.migration.policy";

    public ConsumerGroupConfig {
        if (sessionTimeoutMs < 1 || heartbeatIntervalMs < 1 || maxSize < 1) {
            throw new IllegalArgumentException(SESSION_TIMEOUT_MS + ", " + HEARTBEAT_INTERVAL_MS + " and " + MAX_SIZE
                    + " must be positive");
        }
        if (heartbeatIntervalMs >= sessionTimeoutMs) {
            throw new IllegalArgumentException(HEARTBEAT_INTERVAL_MS + " must be less than " + SESSION_TIMEOUT_MS);
        }
        if (assignors.isEmpty()) {
            throw new IllegalArgumentException(ASSIGNORS + " needs at least one assignor");
        }
        assignors = List.copyOf(assignors);
        java.util.Objects.requireNonNull(migrationPolicy, MIGRATION_POLICY);
    }

    /** The keys, so a node's configuration knows them, with Kafka's validators. */
    public static ConfigDef definition() {
        return new ConfigDef()
                .define(SESSION_TIMEOUT_MS, INT, 45_000, atLeast(1), MEDIUM,
                        "How long a consumer-protocol member may go without a heartbeat before it is removed.")
                .define(HEARTBEAT_INTERVAL_MS, INT, 5_000, atLeast(1), MEDIUM,
                        "How often consumer-protocol members are told to heartbeat.")
                .define(MAX_SIZE, INT, Integer.MAX_VALUE, atLeast(1), MEDIUM,
                        "The most members a consumer-protocol group holds.")
                .define(ASSIGNORS, LIST, List.of(UniformAssignor.NAME, RangeAssignor.NAME), nonEmptyList(), MEDIUM,
                        "The server-side assignors (uniform, range); the first is used unless a member asks for another.")
                .define(MIGRATION_POLICY, STRING, "bidirectional",
                        inIgnoringCase("disabled", "upgrade", "downgrade", "bidirectional"), MEDIUM,
                        "Whether a group with members may change protocol: disabled, upgrade (classic to consumer), "
                                + "downgrade (consumer to classic) or bidirectional.");
    }

    public static ConsumerGroupConfig defaults() {
        return fromProperties(Map.of());
    }

    /**
     * Reads the settings from a node's Kafka-named properties; absent ones take Kafka's defaults.
     *
     * @throws io.kraft.config.ConfigException naming the key of a value of the wrong type or out of its range
     * @throws IllegalArgumentException for an unknown assignor, or a heartbeat interval not below the session
     */
    public static ConsumerGroupConfig fromProperties(Map<String, String> props) {
        ParsedConfig config = definition().parseOwn(props, ConfigSource.STATIC_BROKER_CONFIG);
        List<PartitionAssignor> assignors = new ArrayList<>();
        config.getList(ASSIGNORS).forEach(name -> assignors.add(assignor(name)));
        return new ConsumerGroupConfig(config.getInt(SESSION_TIMEOUT_MS), config.getInt(HEARTBEAT_INTERVAL_MS),
                config.getInt(MAX_SIZE), assignors, MigrationPolicy.parse(config.getString(MIGRATION_POLICY)));
    }

    /** The assignor by its name or, as Kafka's setting allows, by Kafka's class name of it. */
    private static PartitionAssignor assignor(String name) {
        String simple = name.substring(name.lastIndexOf('.') + 1);
        if (simple.equalsIgnoreCase(UniformAssignor.NAME) || simple.equals("UniformAssignor")) {
            return new UniformAssignor();
        }
        if (simple.equalsIgnoreCase(RangeAssignor.NAME) || simple.equals("RangeAssignor")) {
            return new RangeAssignor();
        }
        throw new IllegalArgumentException(ASSIGNORS + ": unknown assignor '" + name + "' (uniform, range)");
    }

    /** The assignor named {@code name}, or null when it is not configured. */
    public PartitionAssignor assignor(String name, boolean orDefault) {
        for (PartitionAssignor assignor : assignors) {
            if (assignor.name().equals(name)) {
                return assignor;
            }
        }
        return orDefault ? assignors.get(0) : null;
    }
}
