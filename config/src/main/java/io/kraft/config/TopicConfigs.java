package io.kraft.config;

import static io.kraft.config.ConfigType.BOOLEAN;
import static io.kraft.config.ConfigType.DOUBLE;
import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LIST;
import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.HIGH;
import static io.kraft.config.Importance.LOW;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;
import static io.kraft.config.Validator.between;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The topic-level settings (per-topic overrides of {@link LogConfigs}: the log's, plus
 * min.insync.replicas and unclean.leader.election.enable), with Kafka's names, and
 * the broker settings each one falls back to. Their defaults are the broker's effective values, so a
 * topic definition is built per broker configuration; see {@link TopicConfigResolver}.
 */
public final class TopicConfigs {
    public static final String SEGMENT_BYTES = "segment.bytes";
    public static final String SEGMENT_MS = "segment.ms";
    public static final String INDEX_INTERVAL_BYTES = "index.interval.bytes";
    public static final String SEGMENT_INDEX_BYTES = "segment.index.bytes";
    public static final String RETENTION_MS = "retention.ms";
    public static final String RETENTION_BYTES = "retention.bytes";
    public static final String CLEANUP_POLICY = "cleanup.policy";
    public static final String DELETE_RETENTION_MS = "delete.retention.ms";
    public static final String MIN_CLEANABLE_DIRTY_RATIO = "min.cleanable.dirty.ratio";
    public static final String FLUSH_MESSAGES = "flush.messages";
    public static final String FLUSH_MS = "flush.ms";
    public static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    public static final String MESSAGE_TIMESTAMP_TYPE = "message.timestamp.type";
    public static final String COMPRESSION_TYPE = "compression.type";
    public static final String SEGMENT_JITTER_MS = "segment.jitter.ms";
    public static final String FILE_DELETE_DELAY_MS = "file.delete.delay.ms";
    public static final String MIN_COMPACTION_LAG_MS = "min.compaction.lag.ms";
    public static final String MAX_COMPACTION_LAG_MS = "max.compaction.lag.ms";
    public static final String MESSAGE_TIMESTAMP_BEFORE_MAX_MS = "message.timestamp.before.max.ms";
    public static final String MESSAGE_TIMESTAMP_AFTER_MAX_MS = "message.timestamp.after.max.ms";
    public static final String PREALLOCATE = "preallocate";
    public static final String MIN_INSYNC_REPLICAS = "min.insync.replicas";
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";
    public static final String LEADER_REPLICATION_THROTTLED_REPLICAS = "leader.replication.throttled.replicas";
    public static final String FOLLOWER_REPLICATION_THROTTLED_REPLICAS = "follower.replication.throttled.replicas";

    /** A topic setting without its default, and the broker keys it falls back to, first match wins. */
    private record TopicKey(String name, ConfigType type, Validator validator, Importance importance, String doc,
                            List<String> brokerSynonyms) {
    }

    private static final Map<String, TopicKey> KEYS = new LinkedHashMap<>();

    static {
        add(SEGMENT_BYTES, INT, atLeast(LogConfigs.MIN_SEGMENT_BYTES), MEDIUM,
                "The largest size of one segment file of this topic.", LogConfigs.LOG_SEGMENT_BYTES);
        add(SEGMENT_MS, LONG, atLeast(1), MEDIUM,
                "The longest time before this topic rolls a new segment.",
                LogConfigs.LOG_ROLL_MS, LogConfigs.LOG_ROLL_HOURS);
        add(INDEX_INTERVAL_BYTES, INT, atLeast(0), MEDIUM,
                "How many log bytes lie between two offset index entries.", LogConfigs.LOG_INDEX_INTERVAL_BYTES);
        add(SEGMENT_INDEX_BYTES, INT, atLeast(LogConfigs.MIN_INDEX_SIZE_BYTES), MEDIUM,
                "The largest size of an offset or time index file.", LogConfigs.LOG_INDEX_SIZE_MAX_BYTES);
        add(RETENTION_MS, LONG, atLeast(-1), MEDIUM,
                "How long to keep a segment of this topic; -1 keeps it forever.",
                LogConfigs.LOG_RETENTION_MS, LogConfigs.LOG_RETENTION_MINUTES, LogConfigs.LOG_RETENTION_HOURS);
        add(RETENTION_BYTES, LONG, null, MEDIUM,
                "The largest size of a partition log before old segments are deleted; -1 means no limit.",
                LogConfigs.LOG_RETENTION_BYTES);
        add(CLEANUP_POLICY, LIST,
                Validator.nonEmptyList().and(Validator.itemsIn(LogConfigs.CLEANUP_POLICY_COMPACT,
                        LogConfigs.CLEANUP_POLICY_DELETE)), MEDIUM,
                "What happens to old segments: delete them, compact them by key, or both.",
                LogConfigs.LOG_CLEANUP_POLICY);
        add(DELETE_RETENTION_MS, LONG, atLeast(0), MEDIUM,
                "How long tombstones stay in this compacted topic.", LogConfigs.LOG_CLEANER_DELETE_RETENTION_MS);
        add(MIN_CLEANABLE_DIRTY_RATIO, DOUBLE, between(0, 1), MEDIUM,
                "The smallest share of dirty bytes that makes this log eligible for cleaning.",
                LogConfigs.LOG_CLEANER_MIN_CLEANABLE_RATIO);
        add(FLUSH_MESSAGES, LONG, atLeast(1), MEDIUM,
                "How many messages a partition accumulates before it is fsynced.",
                LogConfigs.LOG_FLUSH_INTERVAL_MESSAGES);
        add(FLUSH_MS, LONG, atLeast(0), MEDIUM,
                "The longest time a message waits in memory before an fsync.",
                LogConfigs.LOG_FLUSH_INTERVAL_MS, LogConfigs.LOG_FLUSH_SCHEDULER_INTERVAL_MS);
        add(MAX_MESSAGE_BYTES, INT, atLeast(0), MEDIUM,
                "The largest record batch this topic accepts.", LogConfigs.MESSAGE_MAX_BYTES);
        add(MESSAGE_TIMESTAMP_TYPE, STRING,
                Validator.in(LogConfigs.TIMESTAMP_TYPE_CREATE_TIME, LogConfigs.TIMESTAMP_TYPE_LOG_APPEND_TIME), LOW,
                "Whether record timestamps are the producer's create time or the broker's append time.",
                LogConfigs.LOG_MESSAGE_TIMESTAMP_TYPE);
        add(COMPRESSION_TYPE, STRING, Validator.in(LogConfigs.COMPRESSION_TYPES.toArray(String[]::new)), MEDIUM,
                "The codec batches of this topic are stored with; producer keeps the producer's codec.",
                LogConfigs.COMPRESSION_TYPE);
        add(SEGMENT_JITTER_MS, LONG, atLeast(0), LOW,
                "Most random time subtracted from this topic's roll time.",
                LogConfigs.LOG_ROLL_JITTER_MS, LogConfigs.LOG_ROLL_JITTER_HOURS);
        add(FILE_DELETE_DELAY_MS, LONG, atLeast(0), MEDIUM,
                "How long a deleted segment's files stay readable before they are removed.",
                LogConfigs.LOG_SEGMENT_DELETE_DELAY_MS);
        add(MIN_COMPACTION_LAG_MS, LONG, atLeast(0), MEDIUM,
                "Shortest time a record of this topic stays uncompacted.", LogConfigs.LOG_CLEANER_MIN_COMPACTION_LAG_MS);
        add(MAX_COMPACTION_LAG_MS, LONG, atLeast(1), MEDIUM,
                "Longest time a record of this topic may stay uncompacted.", LogConfigs.LOG_CLEANER_MAX_COMPACTION_LAG_MS);
        add(MESSAGE_TIMESTAMP_BEFORE_MAX_MS, LONG, atLeast(0), MEDIUM,
                "How far in the past a CreateTime timestamp may be before a batch is rejected.",
                LogConfigs.LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS);
        add(MESSAGE_TIMESTAMP_AFTER_MAX_MS, LONG, atLeast(0), MEDIUM,
                "How far in the future a CreateTime timestamp may be before a batch is rejected.",
                LogConfigs.LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS);
        add(PREALLOCATE, BOOLEAN, null, MEDIUM, "Whether new segment files of this topic are preallocated.",
                LogConfigs.LOG_PREALLOCATE);
        add(MIN_INSYNC_REPLICAS, INT, atLeast(1), MEDIUM,
                "Fewest in-sync replicas that must have a write before acks=all succeeds.",
                LogConfigs.MIN_INSYNC_REPLICAS);
        add(UNCLEAN_LEADER_ELECTION_ENABLE, BOOLEAN, null, MEDIUM,
                "Whether a replica outside the ISR may lead this topic as a last resort, losing data.",
                LogConfigs.UNCLEAN_LEADER_ELECTION_ENABLE);
        // No broker key supplies these (Kafka has none): without an override the list is empty.
        add(LEADER_REPLICATION_THROTTLED_REPLICAS, LIST, ThrottledReplicaList.INSTANCE, MEDIUM,
                "Replicas whose copying this topic's leaders throttle to leader.replication.throttled.rate: "
                        + "[partitionId]:[brokerId],... or '*' for all.");
        add(FOLLOWER_REPLICATION_THROTTLED_REPLICAS, LIST, ThrottledReplicaList.INSTANCE, MEDIUM,
                "Replicas whose copying this topic's followers throttle to follower.replication.throttled.rate: "
                        + "[partitionId]:[brokerId],... or '*' for all.");
    }

    private TopicConfigs() {
    }

    private static void add(String name, ConfigType type, Validator validator, Importance importance, String doc,
                            String... brokerSynonyms) {
        KEYS.put(name, new TopicKey(name, type, validator, importance, doc, List.of(brokerSynonyms)));
    }

    /** Every topic-level log setting name, in definition order. */
    public static Set<String> names() {
        return Collections.unmodifiableSet(KEYS.keySet());
    }

    /** Whether the name is a topic-level log setting. */
    public static boolean isTopicConfig(String name) {
        return KEYS.containsKey(name);
    }

    /**
     * The broker settings a topic setting falls back to, in precedence order (e.g. retention.ms:
     * log.retention.ms, log.retention.minutes, log.retention.hours).
     *
     * @throws UnknownConfigException if the name is not a topic setting
     */
    public static List<String> brokerSynonyms(String topicKey) {
        return topicKey(topicKey).brokerSynonyms();
    }

    /** The type of a topic setting. */
    public static ConfigType type(String topicKey) {
        return topicKey(topicKey).type();
    }

    /** The topic definition whose defaults are the broker's effective values. */
    public static ConfigDef definition(BrokerLogSettings broker) {
        ConfigDef definition = new ConfigDef();
        for (TopicKey key : KEYS.values()) {
            definition.define(key.name(), key.type(), broker.topicDefaults().entry(key.name()).value(),
                    key.validator(), key.importance(), key.doc());
        }
        return definition;
    }

    private static TopicKey topicKey(String name) {
        TopicKey key = KEYS.get(name);
        if (key == null) {
            throw new UnknownConfigException("topic", name);
        }
        return key;
    }
}
