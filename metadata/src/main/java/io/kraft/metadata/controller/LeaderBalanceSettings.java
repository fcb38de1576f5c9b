package io.kraft.metadata.controller;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ConfigType;
import io.kraft.config.Importance;
import io.kraft.config.ParsedConfig;
import io.kraft.config.Validator;
import java.util.Map;

/**
 * How the active controller brings leadership back to preferred replicas by itself, with Kafka's names and defaults.
 *
 * @param enabled                  auto.leader.rebalance.enable
 * @param checkIntervalMs          leader.imbalance.check.interval.seconds, in milliseconds
 * @param imbalancePerBrokerPercent leader.imbalance.per.broker.percentage: a broker's partitions whose preferred leader
 *                                 it is but that another broker leads, as a share of all whose preferred leader it is,
 *                                 above which the controller moves them back
 */
public record LeaderBalanceSettings(boolean enabled, long checkIntervalMs, int imbalancePerBrokerPercent) {
    public static final String AUTO_LEADER_REBALANCE_ENABLE = "auto.leader.rebalance.enable";
    public static final String LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS = "leader.imbalance.check.interval.seconds";
    public static final String LEADER_IMBALANCE_PER_BROKER_PERCENTAGE = "leader.imbalance.per.broker.percentage";

    /** Kafka's defaults: enabled, every 300 s, above 10 %. */
    public static final LeaderBalanceSettings DEFAULTS = new LeaderBalanceSettings(true, 300_000, 10);

    private static final ConfigDef DEFINITION = new ConfigDef()
            .define(AUTO_LEADER_REBALANCE_ENABLE, ConfigType.BOOLEAN, true, Importance.HIGH,
                    "Whether the controller periodically moves leadership back to the preferred replicas.")
            .define(LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS, ConfigType.LONG, 300L, Validator.atLeast(1),
                    Importance.HIGH, "How often the controller checks whether leadership is balanced.")
            .define(LEADER_IMBALANCE_PER_BROKER_PERCENTAGE, ConfigType.INT, 10, Validator.between(0, 100),
                    Importance.HIGH, "The share of a broker's preferred leaderships held by other brokers above which"
                            + " the controller moves them back.");

    public LeaderBalanceSettings {
        if (checkIntervalMs <= 0) {
            throw new IllegalArgumentException(LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS + " must be positive");
        }
        if (imbalancePerBrokerPercent < 0 || imbalancePerBrokerPercent > 100) {
            throw new IllegalArgumentException(LEADER_IMBALANCE_PER_BROKER_PERCENTAGE + " must be 0 to 100");
        }
    }

    /** The definitions of these keys: names, types, Kafka's defaults and documentation. */
    public static ConfigDef definition() {
        return DEFINITION;
    }

    /**
     * Reads these keys from a node's properties; absent keys take Kafka's defaults.
     *
     * @throws io.kraft.config.ConfigException naming the key when a value is invalid
     */
    public static LeaderBalanceSettings fromProperties(Map<String, String> properties) {
        ParsedConfig parsed = DEFINITION.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        return new LeaderBalanceSettings(parsed.getBoolean(AUTO_LEADER_REBALANCE_ENABLE),
                parsed.getLong(LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS) * 1000,
                parsed.getInt(LEADER_IMBALANCE_PER_BROKER_PERCENTAGE));
    }
}
