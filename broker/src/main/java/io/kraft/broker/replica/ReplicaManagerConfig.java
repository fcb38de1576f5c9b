package io.kraft.broker.replica;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.Importance.LOW;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.ParsedConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The replica manager's settings under Kafka's names: where logs live, how often maintenance and
 * checkpoints run, and the fetch limits. Log settings come from the config module's {@link LogConfigs};
 * the data-path keys are defined here.
 *
 * @param logDirs                             {@code log.dirs} (else {@code log.dir})
 * @param retentionCheckIntervalMs            {@code log.retention.check.interval.ms}
 * @param cleanerEnable                       {@code log.cleaner.enable}
 * @param cleanerDedupeBufferBytes            {@code log.cleaner.dedupe.buffer.size}
 * @param cleanerBackoffMs                    {@code log.cleaner.backoff.ms}
 * @param flushSchedulerIntervalMs            {@code log.flush.scheduler.interval.ms} (time-based flush checks)
 * @param offsetCheckpointIntervalMs          {@code log.flush.offset.checkpoint.interval.ms} (recovery points, log starts)
 * @param highWatermarkCheckpointIntervalMs   {@code replica.high.watermark.checkpoint.interval.ms}
 * @param fetchSessionCacheSlots              {@code max.incremental.fetch.session.cache.slots}
 * @param fetchMaxBytes                       {@code fetch.max.bytes}: caps a fetch response
 */
public record ReplicaManagerConfig(List<Path> logDirs, long retentionCheckIntervalMs, boolean cleanerEnable,
                                   int cleanerDedupeBufferBytes, long cleanerBackoffMs, long flushSchedulerIntervalMs,
                                   long offsetCheckpointIntervalMs, long highWatermarkCheckpointIntervalMs,
                                   int fetchSessionCacheSlots, int fetchMaxBytes) {
    public static final String LOG_CLEANER_DEDUPE_BUFFER_SIZE = "log.cleaner.dedupe.buffer.size";
    public static final String LOG_CLEANER_BACKOFF_MS = "log.cleaner.backoff.ms";
    public static final String LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS = "log.flush.offset.checkpoint.interval.ms";
    public static final String REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS =
            "replica.high.watermark.checkpoint.interval.ms";
    public static final String MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS = "max.incremental.fetch.session.cache.slots";
    public static final String FETCH_MAX_BYTES = "fetch.max.bytes";

    public ReplicaManagerConfig {
        logDirs = List.copyOf(logDirs);
        if (logDirs.isEmpty()) {
            throw new IllegalArgumentException("at least one log directory is needed");
        }
    }

    /** The data-path keys (not the log keys, which {@link LogConfigs} defines). */
    public static ConfigDef definition() {
        return new ConfigDef()
                .define(LOG_CLEANER_DEDUPE_BUFFER_SIZE, INT, 128 * 1024 * 1024, atLeast(1024), MEDIUM,
                        "Memory for the cleaner's key-to-offset map, allocated when a compacted log is first cleaned.")
                .define(LOG_CLEANER_BACKOFF_MS, LONG, 15_000L, atLeast(1), MEDIUM,
                        "How often compacted logs are checked for cleaning.")
                .define(LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS, LONG, 60_000L, atLeast(1), MEDIUM,
                        "How often recovery points and log start offsets are checkpointed.")
                .define(REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS, LONG, 5_000L, atLeast(1), MEDIUM,
                        "How often high watermarks are written to replication-offset-checkpoint.")
                .define(MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS, INT, 1000, atLeast(0), MEDIUM,
                        "The most incremental fetch sessions (KIP-227) the broker keeps.")
                .define(FETCH_MAX_BYTES, INT, 55 * 1024 * 1024, atLeast(1024), LOW,
                        "The most record bytes one fetch response carries.");
    }

    /**
     * Reads the settings from a node's Kafka-named properties; keys of other components are ignored.
     *
     * @throws io.kraft.config.ConfigException if a value is invalid
     */
    public static ReplicaManagerConfig fromProperties(Map<String, String> properties) {
        ConfigDef definition = LogConfigs.addTo(definition());
        ParsedConfig config = definition.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        BrokerLogSettings log = BrokerLogSettings.from(config);
        return new ReplicaManagerConfig(
                log.logDirs().stream().map(Path::of).toList(),
                log.retentionCheckIntervalMs(),
                log.cleanerEnable(),
                config.getInt(LOG_CLEANER_DEDUPE_BUFFER_SIZE),
                config.getLong(LOG_CLEANER_BACKOFF_MS),
                log.flushSchedulerIntervalMs(),
                config.getLong(LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS),
                config.getLong(REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS),
                config.getInt(MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS),
                config.getInt(FETCH_MAX_BYTES));
    }

    /** Kafka's defaults with the given log directories (tests). */
    public static ReplicaManagerConfig defaults(List<Path> logDirs) {
        Map<String, String> properties = new HashMap<>();
        properties.put(LogConfigs.LOG_DIRS, String.join(",", logDirs.stream().map(Path::toString).toList()));
        return fromProperties(properties);
    }
}
