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

import java.util.List;

/**
 * The broker-level log settings, with Kafka's names, types and defaults. Topic-level overrides of
 * them are in {@link TopicConfigs}; the effective values (after precedence rules) in
 * {@link BrokerLogSettings}.
 */
public final class LogConfigs {
    public static final String LOG_DIRS = "log.dirs";
    public static final String LOG_DIR = "log.dir";
    public static final String LOG_SEGMENT_BYTES = "log.segment.bytes";
    public static final String LOG_ROLL_MS = "log.roll.ms";
    public static final String LOG_ROLL_HOURS = "log.roll.hours";
    public static final String LOG_INDEX_INTERVAL_BYTES = "log.index.interval.bytes";
    public static final String LOG_INDEX_SIZE_MAX_BYTES = "log.index.size.max.bytes";
    public static final String LOG_RETENTION_MS = "log.retention.ms";
    public static final String LOG_RETENTION_MINUTES = "log.retention.minutes";
    public static final String LOG_RETENTION_HOURS = "log.retention.hours";
    public static final String LOG_RETENTION_BYTES = "log.retention.bytes";
    public static final String LOG_RETENTION_CHECK_INTERVAL_MS = "log.retention.check.interval.ms";
    public static final String LOG_CLEANUP_POLICY = "log.cleanup.policy";
    public static final String LOG_CLEANER_ENABLE = "log.cleaner.enable";
    public static final String LOG_CLEANER_DELETE_RETENTION_MS = "log.cleaner.delete.retention.ms";
    public static final String LOG_CLEANER_MIN_CLEANABLE_RATIO = "log.cleaner.min.cleanable.ratio";
    public static final String LOG_FLUSH_INTERVAL_MESSAGES = "log.flush.interval.messages";
    public static final String LOG_FLUSH_INTERVAL_MS = "log.flush.interval.ms";
    public static final String LOG_FLUSH_SCHEDULER_INTERVAL_MS = "log.flush.scheduler.interval.ms";
    public static final String MESSAGE_MAX_BYTES = "message.max.bytes";
    public static final String LOG_MESSAGE_TIMESTAMP_TYPE = "log.message.timestamp.type";
    public static final String COMPRESSION_TYPE = "compression.type";
    public static final String LOG_ROLL_JITTER_MS = "log.roll.jitter.ms";
    public static final String LOG_ROLL_JITTER_HOURS = "log.roll.jitter.hours";
    public static final String LOG_SEGMENT_DELETE_DELAY_MS = "log.segment.delete.delay.ms";
    public static final String LOG_CLEANER_MIN_COMPACTION_LAG_MS = "log.cleaner.min.compaction.lag.ms";
    public static final String LOG_CLEANER_MAX_COMPACTION_LAG_MS = "log.cleaner.max.compaction.lag.ms";
    public static final String LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS = "log.message.timestamp.before.max.ms";
    public static final String LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS = "log.message.timestamp.after.max.ms";
    public static final String LOG_PREALLOCATE = "log.preallocate";
    public static final String MIN_INSYNC_REPLICAS = "min.insync.replicas";
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";
    /** Broker-only (no topic override): how long a partition keeps an idle idempotent producer's state. */
    public static final String PRODUCER_ID_EXPIRATION_MS = "producer.id.expiration.ms";

    /** The cleanup policies, for log.cleanup.policy and cleanup.policy. */
    public static final String CLEANUP_POLICY_DELETE = "delete";
    public static final String CLEANUP_POLICY_COMPACT = "compact";
    /** The timestamp types, for log.message.timestamp.type and message.timestamp.type. */
    public static final String TIMESTAMP_TYPE_CREATE_TIME = "CreateTime";
    public static final String TIMESTAMP_TYPE_LOG_APPEND_TIME = "LogAppendTime";
    /** The compression types; "producer" keeps whatever codec the producer used. */
    public static final List<String> COMPRESSION_TYPES =
            List.of("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer");

    /** The smallest record batch (a v0 message's overhead), so the smallest useful segment. */
    public static final int MIN_SEGMENT_BYTES = 14;
    /** The smallest index file size accepted, as in Kafka. */
    public static final int MIN_INDEX_SIZE_BYTES = 4;

    /** 1 GiB. */
    public static final int DEFAULT_SEGMENT_BYTES = 1024 * 1024 * 1024;
    /** 10 MiB. */
    public static final int DEFAULT_INDEX_SIZE_MAX_BYTES = 10 * 1024 * 1024;
    /** 1 MiB plus the 12-byte log overhead (offset and size) of one batch. */
    public static final int DEFAULT_MESSAGE_MAX_BYTES = 1024 * 1024 + 12;

    private LogConfigs() {
    }

    /** A fresh definition holding only the broker-level log settings. */
    public static ConfigDef definition() {
        return addTo(new ConfigDef());
    }

    /** Defines the broker-level log settings in a (larger) broker definition, and returns it. */
    public static ConfigDef addTo(ConfigDef definition) {
        return definition
                .define(LOG_DIRS, LIST, null, Validator.nonEmptyList(), HIGH,
                        "Comma-separated directories holding partition logs; when unset log.dir is used.")
                .define(LOG_DIR, STRING, "/tmp/kafka-logs", Validator.nonEmptyString(), HIGH,
                        "The directory holding partition logs when log.dirs is unset.")
                .define(LOG_SEGMENT_BYTES, INT, DEFAULT_SEGMENT_BYTES, atLeast(MIN_SEGMENT_BYTES), HIGH,
                        "The largest size of one log segment file before a new one is rolled.")
                .define(LOG_ROLL_MS, LONG, null, atLeast(1), HIGH,
                        "The longest time before a new segment is rolled; overrides log.roll.hours when set.")
                .define(LOG_ROLL_HOURS, INT, 168, atLeast(1), HIGH,
                        "The longest time in hours before a new segment is rolled.")
                .define(LOG_INDEX_INTERVAL_BYTES, INT, 4096, atLeast(0), MEDIUM,
                        "How many log bytes lie between two offset index entries.")
                .define(LOG_INDEX_SIZE_MAX_BYTES, INT, DEFAULT_INDEX_SIZE_MAX_BYTES, atLeast(MIN_INDEX_SIZE_BYTES), MEDIUM,
                        "The largest size of an offset or time index file.")
                .define(LOG_RETENTION_MS, LONG, null, HIGH,
                        "How long to keep a segment before deleting it; -1 keeps it forever; beats minutes and hours.")
                .define(LOG_RETENTION_MINUTES, INT, null, HIGH,
                        "How long in minutes to keep a segment; used when log.retention.ms is unset.")
                .define(LOG_RETENTION_HOURS, INT, 168, HIGH,
                        "How long in hours to keep a segment; used when log.retention.ms and minutes are unset.")
                .define(LOG_RETENTION_BYTES, LONG, -1L, HIGH,
                        "The largest size of a partition log before old segments are deleted; -1 means no limit.")
                .define(LOG_RETENTION_CHECK_INTERVAL_MS, LONG, 300_000L, atLeast(1), MEDIUM,
                        "How often the retention rules are checked.")
                .define(LOG_CLEANUP_POLICY, LIST, List.of(CLEANUP_POLICY_DELETE),
                        Validator.nonEmptyList().and(Validator.itemsIn(CLEANUP_POLICY_COMPACT, CLEANUP_POLICY_DELETE)),
                        MEDIUM, "What happens to old segments: delete them, compact them by key, or both.")
                .define(LOG_CLEANER_ENABLE, BOOLEAN, true, MEDIUM,
                        "Whether the log cleaner runs; compacted topics need it.")
                .define(LOG_CLEANER_DELETE_RETENTION_MS, LONG, 86_400_000L, atLeast(0), MEDIUM,
                        "How long tombstones stay in a compacted log.")
                .define(LOG_CLEANER_MIN_CLEANABLE_RATIO, DOUBLE, 0.5, between(0, 1), MEDIUM,
                        "The smallest share of dirty bytes in a log that makes it eligible for cleaning.")
                .define(LOG_FLUSH_INTERVAL_MESSAGES, LONG, Long.MAX_VALUE, atLeast(1), HIGH,
                        "How many messages a partition accumulates before it is fsynced.")
                .define(LOG_FLUSH_INTERVAL_MS, LONG, null, atLeast(0), HIGH,
                        "The longest time a message waits in memory before an fsync; unset uses the scheduler interval.")
                .define(LOG_FLUSH_SCHEDULER_INTERVAL_MS, LONG, Long.MAX_VALUE, atLeast(0), HIGH,
                        "How often the flusher checks whether a log needs an fsync.")
                .define(MESSAGE_MAX_BYTES, INT, DEFAULT_MESSAGE_MAX_BYTES, atLeast(0), HIGH,
                        "The largest record batch the broker accepts.")
                .define(LOG_MESSAGE_TIMESTAMP_TYPE, STRING, TIMESTAMP_TYPE_CREATE_TIME,
                        Validator.in(TIMESTAMP_TYPE_CREATE_TIME, TIMESTAMP_TYPE_LOG_APPEND_TIME), MEDIUM,
                        "Whether record timestamps are the producer's create time or the broker's append time.")
                .define(COMPRESSION_TYPE, STRING, "producer", Validator.in(COMPRESSION_TYPES.toArray(String[]::new)), HIGH,
                        "The codec batches are stored with; producer keeps the producer's codec.")
                .define(LOG_ROLL_JITTER_MS, LONG, null, atLeast(0), HIGH,
                        "Most random time subtracted from the roll time so segments do not all roll at once.")
                .define(LOG_ROLL_JITTER_HOURS, INT, 0, atLeast(0), HIGH,
                        "log.roll.jitter.ms in hours, used when log.roll.jitter.ms is not set.")
                .define(LOG_SEGMENT_DELETE_DELAY_MS, LONG, 60_000L, atLeast(0), HIGH,
                        "How long a deleted segment's files stay readable before they are removed.")
                .define(LOG_CLEANER_MIN_COMPACTION_LAG_MS, LONG, 0L, atLeast(0), MEDIUM,
                        "Shortest time a record stays uncompacted.")
                .define(LOG_CLEANER_MAX_COMPACTION_LAG_MS, LONG, Long.MAX_VALUE, atLeast(1), MEDIUM,
                        "Longest time a record may stay uncompacted.")
                .define(LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS, LONG, Long.MAX_VALUE, atLeast(0), MEDIUM,
                        "How far in the past a CreateTime timestamp may be before a batch is rejected.")
                .define(LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS, LONG, 3_600_000L, atLeast(0), MEDIUM,
                        "How far in the future a CreateTime timestamp may be before a batch is rejected.")
                .define(LOG_PREALLOCATE, BOOLEAN, false, MEDIUM,
                        "Whether new segment files are preallocated.")
                .define(MIN_INSYNC_REPLICAS, INT, 1, atLeast(1), HIGH,
                        "Fewest in-sync replicas that must have a write before acks=all succeeds.")
                .define(UNCLEAN_LEADER_ELECTION_ENABLE, BOOLEAN, false, HIGH,
                        "Whether a replica outside the ISR may become leader as a last resort, losing data.")
                .define(PRODUCER_ID_EXPIRATION_MS, LONG, 86_400_000L, atLeast(1), LOW,
                        "How long a partition keeps the sequence state of a producer id that has not written to it.");
    }
}
