package io.kraft.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A topic's effective log settings: each {@link TopicConfigs} key with its value after topic
 * overrides and broker fallbacks, and where the value came from. Immutable.
 */
public final class TopicLogSettings {
    private final Map<String, ConfigValue> entries;
    private final Map<String, String> overrides;

    TopicLogSettings(Map<String, ConfigValue> entries, Map<String, String> overrides) {
        if (!entries.keySet().equals(TopicConfigs.names())) {
            throw new IllegalArgumentException("Topic settings need exactly the keys " + TopicConfigs.names()
                    + ", got " + entries.keySet());
        }
        this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        this.overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
    }

    public int segmentBytes() {
        return (Integer) value(TopicConfigs.SEGMENT_BYTES);
    }

    public long segmentMs() {
        return (Long) value(TopicConfigs.SEGMENT_MS);
    }

    public int indexIntervalBytes() {
        return (Integer) value(TopicConfigs.INDEX_INTERVAL_BYTES);
    }

    public int segmentIndexBytes() {
        return (Integer) value(TopicConfigs.SEGMENT_INDEX_BYTES);
    }

    /** How long segments are kept; -1 keeps them forever. */
    public long retentionMs() {
        return (Long) value(TopicConfigs.RETENTION_MS);
    }

    /** The partition size limit; -1 (or any negative) means no limit. */
    public long retentionBytes() {
        return (Long) value(TopicConfigs.RETENTION_BYTES);
    }

    /** The cleanup policies, a non-empty subset of {delete, compact}. */
    public Set<String> cleanupPolicy() {
        @SuppressWarnings("unchecked")
        List<String> policies = (List<String>) value(TopicConfigs.CLEANUP_POLICY);
        return Collections.unmodifiableSet(new LinkedHashSet<>(policies));
    }

    /** Whether old segments are deleted by time and size. */
    public boolean deletionEnabled() {
        return cleanupPolicy().contains(LogConfigs.CLEANUP_POLICY_DELETE);
    }

    /** Whether the log is compacted by key. */
    public boolean compactionEnabled() {
        return cleanupPolicy().contains(LogConfigs.CLEANUP_POLICY_COMPACT);
    }

    public long deleteRetentionMs() {
        return (Long) value(TopicConfigs.DELETE_RETENTION_MS);
    }

    public double minCleanableDirtyRatio() {
        return (Double) value(TopicConfigs.MIN_CLEANABLE_DIRTY_RATIO);
    }

    public long flushMessages() {
        return (Long) value(TopicConfigs.FLUSH_MESSAGES);
    }

    public long flushMs() {
        return (Long) value(TopicConfigs.FLUSH_MS);
    }

    public int maxMessageBytes() {
        return (Integer) value(TopicConfigs.MAX_MESSAGE_BYTES);
    }

    /** "CreateTime" or "LogAppendTime". */
    public String messageTimestampType() {
        return (String) value(TopicConfigs.MESSAGE_TIMESTAMP_TYPE);
    }

    /** One of {@link LogConfigs#COMPRESSION_TYPES}. */
    public String compressionType() {
        return (String) value(TopicConfigs.COMPRESSION_TYPE);
    }

    public long segmentJitterMs() {
        return (Long) value(TopicConfigs.SEGMENT_JITTER_MS);
    }

    public long fileDeleteDelayMs() {
        return (Long) value(TopicConfigs.FILE_DELETE_DELAY_MS);
    }

    public long minCompactionLagMs() {
        return (Long) value(TopicConfigs.MIN_COMPACTION_LAG_MS);
    }

    public long maxCompactionLagMs() {
        return (Long) value(TopicConfigs.MAX_COMPACTION_LAG_MS);
    }

    public long messageTimestampBeforeMaxMs() {
        return (Long) value(TopicConfigs.MESSAGE_TIMESTAMP_BEFORE_MAX_MS);
    }

    public long messageTimestampAfterMaxMs() {
        return (Long) value(TopicConfigs.MESSAGE_TIMESTAMP_AFTER_MAX_MS);
    }

    public boolean preallocate() {
        return (Boolean) value(TopicConfigs.PREALLOCATE);
    }

    public int minInsyncReplicas() {
        return (Integer) value(TopicConfigs.MIN_INSYNC_REPLICAS);
    }

    public boolean uncleanLeaderElectionEnable() {
        return (Boolean) value(TopicConfigs.UNCLEAN_LEADER_ELECTION_ENABLE);
    }

    /**
     * A setting's value and source.
     *
     * @throws UnknownConfigException if the name is not a topic setting
     */
    public ConfigValue entry(String topicKey) {
        ConfigValue entry = entries.get(topicKey);
        if (entry == null) {
            throw new UnknownConfigException("topic", topicKey);
        }
        return entry;
    }

    /** Where a setting's value came from. */
    public ConfigSource source(String topicKey) {
        return entry(topicKey).source();
    }

    /** Every setting with value and source, in {@link TopicConfigs} order. */
    public List<ConfigValue> entries() {
        return List.copyOf(entries.values());
    }

    /** The topic's own overrides as given (raw text), which is what the metadata log stores. */
    public Map<String, String> overrides() {
        return overrides;
    }

    private Object value(String topicKey) {
        return entries.get(topicKey).value();
    }

    @Override
    public String toString() {
        return "TopicLogSettings" + entries.values();
    }
}
