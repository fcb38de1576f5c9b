package io.kraft.raft.file;

import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.Importance.HIGH;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import io.kraft.raft.LogRetentionPolicy;
import io.kraft.raft.SnapshotId;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Kafka's metadata log retention: once a snapshot exists, the log prefix it covers goes when the log holds more
 * than {@code metadata.max.retention.bytes} or its oldest segment is older than {@code metadata.max.retention.ms}.
 * A negative limit means "no limit" on that dimension.
 */
public final class MetadataLogRetention implements LogRetentionPolicy {
    public static final String MAX_RETENTION_BYTES = "metadata.max.retention.bytes";
    public static final String MAX_RETENTION_MS = "metadata.max.retention.ms";
    public static final long DEFAULT_MAX_RETENTION_BYTES = 100L * 1024 * 1024;
    public static final long DEFAULT_MAX_RETENTION_MS = 7L * 24 * 60 * 60 * 1000;

    private static final ConfigDef DEFINITION = definition();

    private final FileRaftLog log;
    private final long maxRetentionBytes;
    private final long maxRetentionMs;
    private final LongSupplier clockMs;

    public MetadataLogRetention(FileRaftLog log, long maxRetentionBytes, long maxRetentionMs, LongSupplier clockMs) {
        this.log = log;
        this.maxRetentionBytes = maxRetentionBytes;
        this.maxRetentionMs = maxRetentionMs;
        this.clockMs = clockMs;
    }

    /**
     * A fresh definition of the two settings (Kafka's names, types and defaults), for a component that parses them or
     * lists them among its own.
     */
    public static ConfigDef definition() {
        return new ConfigDef()
                .define(MAX_RETENTION_BYTES, LONG, DEFAULT_MAX_RETENTION_BYTES, HIGH,
                        "Once a snapshot exists, the largest size of the metadata log before the prefix the snapshot "
                                + "covers is deleted; negative for no size limit.")
                .define(MAX_RETENTION_MS, LONG, DEFAULT_MAX_RETENTION_MS, HIGH,
                        "Once a snapshot exists, the greatest age of the metadata log's oldest segment before the "
                                + "prefix the snapshot covers is deleted; negative for no age limit.");
    }

    /**
     * Reads the two settings by their Kafka names from a node's properties (ignoring the keys other components own),
     * with Kafka's defaults.
     *
     * @throws IllegalArgumentException with one line naming the key when a value is invalid
     */
    public static MetadataLogRetention from(FileRaftLog log, Map<String, String> properties) {
        ParsedConfig config;
        try {
            config = DEFINITION.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new MetadataLogRetention(log, config.getLong(MAX_RETENTION_BYTES), config.getLong(MAX_RETENTION_MS),
                System::currentTimeMillis);
    }

    @Override
    public boolean deletePrefixUpTo(SnapshotId snapshot) {
        boolean tooLarge = maxRetentionBytes >= 0 && log.sizeBytes() > maxRetentionBytes;
        boolean tooOld = maxRetentionMs >= 0 && clockMs.getAsLong() - log.oldestSegmentModifiedMs() > maxRetentionMs;
        return tooLarge || tooOld;
    }
}
