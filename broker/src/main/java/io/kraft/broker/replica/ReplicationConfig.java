package io.kraft.broker.replica;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.HIGH;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.util.Map;
import java.util.Optional;

/**
 * Settings of replication between brokers under Kafka's names: the follower fetchers' limits and the
 * leader's ISR lag bound.
 *
 * @param numReplicaFetchers         {@code num.replica.fetchers}: fetcher threads per source broker
 * @param fetchMaxBytes              {@code replica.fetch.max.bytes}: per partition of a follower fetch
 * @param fetchWaitMaxMs             {@code replica.fetch.wait.max.ms}: how long a leader may hold a follower fetch
 * @param fetchMinBytes              {@code replica.fetch.min.bytes}
 * @param fetchResponseMaxBytes      {@code replica.fetch.response.max.bytes}: per follower fetch response
 * @param fetchBackoffMs             {@code replica.fetch.backoff.ms}: pause after a failed fetch of a partition
 * @param lagTimeMaxMs               {@code replica.lag.time.max.ms}: an ISR member behind for longer leaves it
 * @param socketTimeoutMs            {@code replica.socket.timeout.ms}: connect and answer bound of a fetch
 * @param interBrokerListenerName    {@code inter.broker.listener.name}; empty = a broker's first listener
 */
public record ReplicationConfig(int numReplicaFetchers, int fetchMaxBytes, int fetchWaitMaxMs, int fetchMinBytes,
                                int fetchResponseMaxBytes, long fetchBackoffMs, long lagTimeMaxMs,
                                int socketTimeoutMs, Optional<String> interBrokerListenerName) {
    public static final String NUM_REPLICA_FETCHERS = "num.replica.fetchers";
    public static final String REPLICA_FETCH_MAX_BYTES = "replica.fetch.max.bytes";
    public static final String REPLICA_FETCH_WAIT_MAX_MS = "replica.fetch.wait.max.ms";
    public static final String REPLICA_FETCH_MIN_BYTES = "replica.fetch.min.bytes";
    public static final String REPLICA_FETCH_RESPONSE_MAX_BYTES = "replica.fetch.response.max.bytes";
    public static final String REPLICA_FETCH_BACKOFF_MS = "replica.fetch.backoff.ms";
    public static final String REPLICA_LAG_TIME_MAX_MS = "replica.lag.time.max.ms";
    public static final String REPLICA_SOCKET_TIMEOUT_MS = "replica.socket.timeout.ms";
    public static final String INTER_BROKER_LISTENER_NAME = "inter.broker.listener.name";

    public ReplicationConfig {
        if (socketTimeoutMs <= fetchWaitMaxMs) {
            throw new IllegalArgumentException(REPLICA_SOCKET_TIMEOUT_MS + " (" + socketTimeoutMs
                    + ") must exceed " + REPLICA_FETCH_WAIT_MAX_MS + " (" + fetchWaitMaxMs + ")");
        }
    }

    public static ConfigDef definition() {
        return new ConfigDef()
                .define(NUM_REPLICA_FETCHERS, INT, 1, atLeast(1), HIGH,
                        "Fetcher threads per source broker; a partition always uses the same one.")
                .define(REPLICA_FETCH_MAX_BYTES, INT, 1024 * 1024, atLeast(0), MEDIUM,
                        "Record bytes a follower asks for per partition (the first batch comes whole anyway).")
                .define(REPLICA_FETCH_WAIT_MAX_MS, INT, 500, atLeast(0), MEDIUM,
                        "How long the leader may hold a follower's fetch waiting for data.")
                .define(REPLICA_FETCH_MIN_BYTES, INT, 1, atLeast(1), MEDIUM,
                        "Record bytes that let the leader answer a follower's fetch before the wait ends.")
                .define(REPLICA_FETCH_RESPONSE_MAX_BYTES, INT, 10 * 1024 * 1024, atLeast(0), MEDIUM,
                        "Record bytes a follower's fetch response may carry over all partitions.")
                .define(REPLICA_FETCH_BACKOFF_MS, LONG, 1_000L, atLeast(0), MEDIUM,
                        "Pause before fetching a partition again after a fetch error.")
                .define(REPLICA_LAG_TIME_MAX_MS, LONG, 30_000L, atLeast(1), HIGH,
                        "A follower that has not caught up to the leader's log end for this long leaves the ISR.")
                .define(REPLICA_SOCKET_TIMEOUT_MS, INT, 30_000, atLeast(1), MEDIUM,
                        "How long a follower waits to connect to its leader and for each fetch answer.")
                .define(INTER_BROKER_LISTENER_NAME, STRING, null, MEDIUM,
                        "The listener brokers use to reach each other; by default the first listener not named in"
                                + " controller.listener.names.");
    }

    /**
     * Reads the settings from a node's Kafka-named properties; keys of other components are ignored.
     *
     * @throws io.kraft.config.ConfigException if a value is invalid
     */
    public static ReplicationConfig fromProperties(Map<String, String> properties) {
        ConfigDef definition = definition();
        ParsedConfig config = definition.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        String listener = config.getString(INTER_BROKER_LISTENER_NAME);
        return new ReplicationConfig(config.getInt(NUM_REPLICA_FETCHERS), config.getInt(REPLICA_FETCH_MAX_BYTES),
                config.getInt(REPLICA_FETCH_WAIT_MAX_MS), config.getInt(REPLICA_FETCH_MIN_BYTES),
                config.getInt(REPLICA_FETCH_RESPONSE_MAX_BYTES), config.getLong(REPLICA_FETCH_BACKOFF_MS),
                config.getLong(REPLICA_LAG_TIME_MAX_MS), config.getInt(REPLICA_SOCKET_TIMEOUT_MS),
                Optional.ofNullable(listener).filter(name -> !name.isBlank()));
    }

    /** These settings with followers fetching on the listener {@code name}. */
    public ReplicationConfig withInterBrokerListenerName(String name) {
        return new ReplicationConfig(numReplicaFetchers, fetchMaxBytes, fetchWaitMaxMs, fetchMinBytes,
                fetchResponseMaxBytes, fetchBackoffMs, lagTimeMaxMs, socketTimeoutMs, Optional.of(name));
    }

    /** Kafka's defaults. */
    public static ReplicationConfig defaults() {
        return fromProperties(Map.of());
    }
}
