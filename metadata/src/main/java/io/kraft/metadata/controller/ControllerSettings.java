package io.kraft.metadata.controller;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ConfigType;
import io.kraft.config.Importance;
import io.kraft.config.ParsedConfig;
import io.kraft.config.Validator;
import java.util.Map;
import java.util.Objects;

/**
 * The controller settings the control managers need, with Kafka's names where Kafka has the setting.
 *
 * @param sessionTimeoutMs            broker.session.timeout.ms: a broker that does not heartbeat for this
 *                                    long is fenced
 * @param connectionLossGraceMs       broker.connection.loss.grace.ms (ours): a broker whose control-plane
 *                                    connection closed and that does not come back within this long is fenced
 *                                    without waiting for the session timeout
 * @param uncleanLeaderElectionEnable unclean.leader.election.enable: elect a leader from outside the ISR
 *                                    when no ISR member is available
 * @param defaultNumPartitions        num.partitions: partitions of a topic created without a count
 * @param defaultReplicationFactor    default.replication.factor: replicas of a topic created without one
 */
public record ControllerSettings(String clusterId, long sessionTimeoutMs, long connectionLossGraceMs,
                                 boolean uncleanLeaderElectionEnable, int defaultNumPartitions,
                                 int defaultReplicationFactor) {
    public static final String BROKER_SESSION_TIMEOUT_MS = "broker.session.timeout.ms";
    public static final String BROKER_CONNECTION_LOSS_GRACE_MS = "broker.connection.loss.grace.ms";
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";
    public static final String NUM_PARTITIONS = "num.partitions";
    public static final String DEFAULT_REPLICATION_FACTOR = "default.replication.factor";
    /** Ours: whether the controller probes a broker's endpoints to fence a dead one at once (see the doc below). */
    public static final String BROKER_CONNECTION_PROBE_ENABLE = "broker.connection.probe.enable";

    public static final long DEFAULT_SESSION_TIMEOUT_MS = 9_000L;
    public static final long DEFAULT_CONNECTION_LOSS_GRACE_MS = 1_000L;

    private static final ConfigDef DEFINITION = new ConfigDef()
            .define(BROKER_SESSION_TIMEOUT_MS, ConfigType.LONG, DEFAULT_SESSION_TIMEOUT_MS, Validator.atLeast(1),
                    Importance.MEDIUM, "How long a broker may go without a heartbeat before the controller fences it.")
            .define(BROKER_CONNECTION_LOSS_GRACE_MS, ConfigType.LONG, DEFAULT_CONNECTION_LOSS_GRACE_MS,
                    Validator.atLeast(0), Importance.LOW,
                    "How long a broker whose control-plane connection closed may take to come back before it is fenced.")
            .define(UNCLEAN_LEADER_ELECTION_ENABLE, ConfigType.BOOLEAN, false, Importance.HIGH,
                    "Whether a replica outside the ISR may become leader as a last resort, losing data.")
            .define(NUM_PARTITIONS, ConfigType.INT, 1, Validator.atLeast(1), Importance.MEDIUM,
                    "The number of partitions of a topic created without a partition count (including auto-created ones).")
            .define(DEFAULT_REPLICATION_FACTOR, ConfigType.INT, 1, Validator.atLeast(1), Importance.MEDIUM,
                    "The replication factor of a topic created without one (including auto-created ones).")
            .define(BROKER_CONNECTION_PROBE_ENABLE, ConfigType.BOOLEAN, true, Importance.LOW,
                    "Whether the active controller connects to a broker's advertised listeners when its control-plane"
                            + " connection ends or a new controller takes over, and fences it at once when every"
                            + " listener refuses. Turn off where controllers cannot reach those addresses (NAT, split"
                            + " networks): a refusal there would fence a live broker.");

    public ControllerSettings {
        Objects.requireNonNull(clusterId, "clusterId");
        if (sessionTimeoutMs <= 0) {
            throw new IllegalArgumentException(BROKER_SESSION_TIMEOUT_MS + " must be positive: " + sessionTimeoutMs);
        }
        if (connectionLossGraceMs < 0) {
            throw new IllegalArgumentException(BROKER_CONNECTION_LOSS_GRACE_MS + " must not be negative: "
                    + connectionLossGraceMs);
        }
        if (defaultNumPartitions < 1) {
            throw new IllegalArgumentException(NUM_PARTITIONS + " must be at least 1: " + defaultNumPartitions);
        }
        if (defaultReplicationFactor < 1) {
            throw new IllegalArgumentException(DEFAULT_REPLICATION_FACTOR + " must be at least 1: "
                    + defaultReplicationFactor);
        }
    }

    /** How long a broker reconnecting to a new leader may take: a heartbeat or two, on top of the connection grace. */
    static final long TAKEOVER_RECONNECT_MS = 2_000L;

    /**
     * How long a controller that just took over waits to hear from an unfenced broker before fencing it: the
     * connection-loss grace plus {@value #TAKEOVER_RECONNECT_MS} ms to find the new leader and reconnect, never more
     * than a session (3 s with the defaults, against a 9 s session).
     */
    public long takeoverGraceMs() {
        return Math.min(sessionTimeoutMs, connectionLossGraceMs + TAKEOVER_RECONNECT_MS);
    }

    /** Kafka's defaults: 9 s sessions, 1 s connection-loss grace, clean elections only, 1 partition, 1 replica. */
    public static ControllerSettings defaults(String clusterId) {
        return new ControllerSettings(clusterId, DEFAULT_SESSION_TIMEOUT_MS, DEFAULT_CONNECTION_LOSS_GRACE_MS,
                false, 1, 1);
    }

    /** The definitions of the controller's keys: names, types, Kafka's defaults and documentation. */
    public static ConfigDef definition() {
        return DEFINITION;
    }

    /**
     * Reads the controller keys from a node's Kafka-named properties; absent keys take Kafka's defaults and
     * other keys are ignored (they belong to other components).
     *
     * @throws io.kraft.config.ConfigException naming the key when a value is invalid
     */
    public static ControllerSettings fromProperties(String clusterId, Map<String, String> properties) {
        ParsedConfig parsed = DEFINITION.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        return new ControllerSettings(clusterId, parsed.getLong(BROKER_SESSION_TIMEOUT_MS),
                parsed.getLong(BROKER_CONNECTION_LOSS_GRACE_MS), parsed.getBoolean(UNCLEAN_LEADER_ELECTION_ENABLE),
                parsed.getInt(NUM_PARTITIONS), parsed.getInt(DEFAULT_REPLICATION_FACTOR));
    }

    /** broker.connection.probe.enable from a node's properties (true when absent). */
    public static boolean brokerProbeEnabled(Map<String, String> properties) {
        return DEFINITION.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG)
                .getBoolean(BROKER_CONNECTION_PROBE_ENABLE);
    }

    public ControllerSettings withUncleanLeaderElection(boolean enable) {
        return new ControllerSettings(clusterId, sessionTimeoutMs, connectionLossGraceMs, enable,
                defaultNumPartitions, defaultReplicationFactor);
    }
}
