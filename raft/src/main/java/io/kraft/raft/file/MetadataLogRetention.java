package io.kraft.raft.file;

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

    /** Reads the two settings by their Kafka names from {@code properties}, with Kafka's defaults. */
    public static MetadataLogRetention from(FileRaftLog log, Map<String, String> properties) {
        return new MetadataLogRetention(log, parse(properties, MAX_RETENTION_BYTES, DEFAULT_MAX_RETENTION_BYTES),
                parse(properties, MAX_RETENTION_MS, DEFAULT_MAX_RETENTION_MS), System::currentTimeMillis);
    }

    @Override
    public boolean deletePrefixUpTo(SnapshotId snapshot) {
        boolean tooLarge = maxRetentionBytes >= 0 && log.sizeBytes() > maxRetentionBytes;
        boolean tooOld = maxRetentionMs >= 0 && clockMs.getAsLong() - log.oldestSegmentModifiedMs() > maxRetentionMs;
        return tooLarge || tooOld;
    }

    private static long parse(Map<String, String> properties, String name, long defaultValue) {
        String value = properties.get(name);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number but was '" + value + "'");
        }
    }
}
