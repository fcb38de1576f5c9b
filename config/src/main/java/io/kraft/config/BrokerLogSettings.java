package io.kraft.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A broker's effective log settings, read from a {@link ParsedConfig} that holds the
 * {@link LogConfigs} keys, with Kafka's precedence rules applied: log.roll.ms over log.roll.hours,
 * log.retention.ms over minutes over hours (any negative meaning unlimited, -1), log.flush.interval.ms
 * falling back to log.flush.scheduler.interval.ms, log.dirs over log.dir.
 */
public final class BrokerLogSettings {
    private static final long MS_PER_MINUTE = 60_000L;
    private static final long MS_PER_HOUR = 60 * MS_PER_MINUTE;

    private final ParsedConfig config;
    private final TopicLogSettings topicDefaults;

    private BrokerLogSettings(ParsedConfig config) {
        this.config = config;
        Map<String, ConfigValue> defaults = new LinkedHashMap<>();
        for (String topicKey : TopicConfigs.names()) {
            defaults.put(topicKey, effective(topicKey));
        }
        this.topicDefaults = new TopicLogSettings(defaults, Map.of());
    }

    /**
     * Applies the precedence rules to a parsed broker configuration.
     *
     * @throws ConfigException if the effective retention time is 0 (it must be -1 or at least 1 ms)
     * @throws IllegalArgumentException if the configuration was not parsed with the {@link LogConfigs} keys
     */
    public static BrokerLogSettings from(ParsedConfig config) {
        return new BrokerLogSettings(Objects.requireNonNull(config, "config"));
    }

    /** The parsed configuration these settings were read from. */
    public ParsedConfig config() {
        return config;
    }

    /** The log directories: log.dirs when set, else log.dir. */
    public List<String> logDirs() {
        List<String> logDirs = config.getList(LogConfigs.LOG_DIRS);
        return logDirs != null ? logDirs : List.of(config.getString(LogConfigs.LOG_DIR));
    }

    public int segmentBytes() {
        return topicDefaults.segmentBytes();
    }

    /** log.roll.ms when set, else log.roll.hours in ms. */
    public long rollMs() {
        return topicDefaults.segmentMs();
    }

    public int indexIntervalBytes() {
        return topicDefaults.indexIntervalBytes();
    }

    public int indexSizeMaxBytes() {
        return topicDefaults.segmentIndexBytes();
    }

    /** log.retention.ms, else minutes, else hours, in ms; -1 means keep forever. */
    public long retentionMs() {
        return topicDefaults.retentionMs();
    }

    public long retentionBytes() {
        return topicDefaults.retentionBytes();
    }

    public long retentionCheckIntervalMs() {
        return config.getLong(LogConfigs.LOG_RETENTION_CHECK_INTERVAL_MS);
    }

    public Set<String> cleanupPolicy() {
        return topicDefaults.cleanupPolicy();
    }

    public boolean cleanerEnable() {
        return config.getBoolean(LogConfigs.LOG_CLEANER_ENABLE);
    }

    public long cleanerDeleteRetentionMs() {
        return topicDefaults.deleteRetentionMs();
    }

    public double cleanerMinCleanableRatio() {
        return topicDefaults.minCleanableDirtyRatio();
    }

    public long flushIntervalMessages() {
        return topicDefaults.flushMessages();
    }

    /** log.flush.interval.ms when set, else log.flush.scheduler.interval.ms. */
    public long flushIntervalMs() {
        return topicDefaults.flushMs();
    }

    public long flushSchedulerIntervalMs() {
        return config.getLong(LogConfigs.LOG_FLUSH_SCHEDULER_INTERVAL_MS);
    }

    public int messageMaxBytes() {
        return topicDefaults.maxMessageBytes();
    }

    public String messageTimestampType() {
        return topicDefaults.messageTimestampType();
    }

    public String compressionType() {
        return topicDefaults.compressionType();
    }

    /** producer.id.expiration.ms: idle producer ids older than this are dropped from partition state. */
    public long producerIdExpirationMs() {
        return config.getLong(LogConfigs.PRODUCER_ID_EXPIRATION_MS);
    }

    /**
     * What a topic without overrides gets: each topic setting with the broker's effective value, its
     * source and the broker key that supplied it.
     */
    public TopicLogSettings topicDefaults() {
        return topicDefaults;
    }

    // The first broker synonym with a value wins; only optional synonyms (null default) can lack one.
    private ConfigValue effective(String topicKey) {
        if (TopicConfigs.brokerSynonyms(topicKey).isEmpty()) {
            // A topic setting no broker key supplies (the throttled replica lists) defaults to empty.
            return new ConfigValue(topicKey, List.of(), ConfigSource.DEFAULT_CONFIG, topicKey, "");
        }
        for (String brokerKey : TopicConfigs.brokerSynonyms(topicKey)) {
            Object brokerValue = config.get(brokerKey);
            if (brokerValue != null) {
                Object value = toTopicValue(topicKey, brokerKey, brokerValue);
                return new ConfigValue(topicKey, value, config.source(brokerKey), brokerKey,
                        TopicConfigs.type(topicKey).display(value));
            }
        }
        throw new IllegalStateException("No broker setting supplies a value for topic setting " + topicKey);
    }

    private Object toTopicValue(String topicKey, String brokerKey, Object brokerValue) {
        long unitMs = switch (brokerKey) {
            case LogConfigs.LOG_ROLL_HOURS, LogConfigs.LOG_RETENTION_HOURS, LogConfigs.LOG_ROLL_JITTER_HOURS -> MS_PER_HOUR;
            case LogConfigs.LOG_RETENTION_MINUTES -> MS_PER_MINUTE;
            default -> 0;
        };
        Object value = unitMs == 0 ? brokerValue : ((Integer) brokerValue) * unitMs;
        if (topicKey.equals(TopicConfigs.RETENTION_MS)) {
            return retentionMs(brokerKey, (Long) value);
        }
        return value;
    }

    private static Long retentionMs(String brokerKey, long retentionMs) {
        if (retentionMs < 0) {
            return -1L;
        }
        if (retentionMs == 0) {
            throw ConfigException.invalidValue(brokerKey, "0", "-1 (unlimited) or a retention of at least 1 ms");
        }
        return retentionMs;
    }
}
