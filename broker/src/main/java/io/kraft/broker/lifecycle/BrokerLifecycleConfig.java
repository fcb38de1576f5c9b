package io.kraft.broker.lifecycle;

import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.util.Map;
import java.util.Optional;

/**
 * Settings of a broker's registration with the controller, under Kafka's names.
 *
 * @param rack                        {@code broker.rack}: sent with the registration, so the controller spreads a
 *                                    partition's replicas over racks and clients see it in Metadata
 * @param heartbeatIntervalMs         {@code broker.heartbeat.interval.ms}
 * @param controlledShutdownTimeoutMs {@code controlled.shutdown.timeout.ms}: how long a stopping broker waits for
 *                                    the controller to move its leaderships before it stops anyway
 * @param logDirFailureTimeoutMs      {@code log.dir.failure.timeout.ms} (KIP-858): how long a failed log directory
 *                                    may wait for the controller to take it offline before the broker stops
 */
public record BrokerLifecycleConfig(Optional<String> rack, long heartbeatIntervalMs, long controlledShutdownTimeoutMs,
                                    long logDirFailureTimeoutMs) {
    public static final String BROKER_RACK = "broker.rack";
    public static final String BROKER_HEARTBEAT_INTERVAL_MS = "broker.heartbeat.interval.ms";
    public static final String CONTROLLED_SHUTDOWN_TIMEOUT_MS = "controlled.shutdown.timeout.ms";
    public static final String LOG_DIR_FAILURE_TIMEOUT_MS = "log.dir.failure.timeout.ms";

    public static ConfigDef definition() {
        return new ConfigDef()
                .define(BROKER_RACK, STRING, null, MEDIUM,
                        "The rack of the broker, used for rack-aware replica placement.")
                // Kafka's default is 2000 ms. A broker is unfenced by its first heartbeat after it caught up, so
                // a restart waits up to one interval more to serve; 1000 ms halves that for one small message a
                // second. It must stay well below broker.session.timeout.ms (9000).
                .define(BROKER_HEARTBEAT_INTERVAL_MS, LONG, 1_000L, atLeast(10), MEDIUM,
                        "How often the broker heartbeats to the active controller.")
                // Not a Kafka key: KRaft brokers wait for their controlled shutdown without a bound of their own.
                .define(CONTROLLED_SHUTDOWN_TIMEOUT_MS, LONG, 5_000L, atLeast(0), MEDIUM,
                        "How long a stopping broker waits for the controller to move its partition leaderships "
                                + "away before it stops anyway (0 skips the controlled shutdown).")
                .define(LOG_DIR_FAILURE_TIMEOUT_MS, LONG, 30_000L, atLeast(1), MEDIUM,
                        "If the broker cannot get the controller to take a failed log directory offline within this "
                                + "time, it shuts down.");
    }

    /**
     * Reads the settings from a node's Kafka-named properties; keys of other components are ignored.
     *
     * @throws io.kraft.config.ConfigException if a value is invalid
     */
    public static BrokerLifecycleConfig fromProperties(Map<String, String> properties) {
        ConfigDef definition = definition();
        ParsedConfig config = definition.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        return new BrokerLifecycleConfig(Optional.ofNullable(config.getString(BROKER_RACK)).map(String::strip)
                .filter(rack -> !rack.isEmpty()), config.getLong(BROKER_HEARTBEAT_INTERVAL_MS),
                config.getLong(CONTROLLED_SHUTDOWN_TIMEOUT_MS), config.getLong(LOG_DIR_FAILURE_TIMEOUT_MS));
    }

    /** The defaults. */
    public static BrokerLifecycleConfig defaults() {
        return fromProperties(Map.of());
    }
}
