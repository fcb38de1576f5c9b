package io.kraft.broker.quota;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.Importance.LOW;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.util.List;
import java.util.Map;

/**
 * Replication throttles' broker keys (KIP-73, Kafka's names and defaults): the byte rates a leader may send and a
 * follower may fetch for throttled replicas, and the copy rate between log directories (all dynamic, per broker
 * or cluster-wide), and how the rates are measured ({@code replication.quota.window.*}, static).
 */
public final class ReplicationQuotaConfig {
    public static final String LEADER_RATE = "leader.replication.throttled.rate";
    public static final String FOLLOWER_RATE = "follower.replication.throttled.rate";
    public static final String ALTER_LOG_DIRS_RATE = "replica.alter.log.dirs.io.max.bytes.per.second";
    public static final String WINDOW_NUM = "replication.quota.window.num";
    public static final String WINDOW_SIZE_SECONDS = "replication.quota.window.size.seconds";
    /** The keys AlterConfigs may change while brokers run. */
    public static final List<String> DYNAMIC_KEYS = List.of(LEADER_RATE, FOLLOWER_RATE, ALTER_LOG_DIRS_RATE);
    public static final long UNLIMITED = Long.MAX_VALUE;

    private ReplicationQuotaConfig() {
    }

    public static ConfigDef definition() {
        return new ConfigDef()
                .define(LEADER_RATE, LONG, UNLIMITED, atLeast(0), MEDIUM,
                        "Bytes per second a leader sends to the replicas of leader.replication.throttled.replicas "
                                + "outside the ISR.")
                .define(FOLLOWER_RATE, LONG, UNLIMITED, atLeast(0), MEDIUM,
                        "Bytes per second a follower fetches for its replicas of "
                                + "follower.replication.throttled.replicas outside the ISR.")
                .define(ALTER_LOG_DIRS_RATE, LONG, UNLIMITED, atLeast(0), MEDIUM,
                        "Bytes per second a replica moving between this broker's log directories copies.")
                .define(WINDOW_NUM, INT, 11, atLeast(1), LOW,
                        "The number of samples replication throttle rates are measured over.")
                .define(WINDOW_SIZE_SECONDS, INT, 1, atLeast(1), LOW,
                        "The length of each sample of replication throttle rates, in seconds.");
    }

    /** The sampling of replication rates from a node's properties. */
    public static QuotaWindows windows(Map<String, String> properties) {
        ParsedConfig config = definition().parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        return new QuotaWindows(config.getInt(WINDOW_NUM), config.getInt(WINDOW_SIZE_SECONDS) * 1000L);
    }
}
