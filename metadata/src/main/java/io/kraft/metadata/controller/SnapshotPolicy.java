package io.kraft.metadata.controller;

import java.util.Map;

/**
 * When the controller snapshots its committed state: after this many bytes of committed records or this long
 * since the last snapshot, whichever comes first (Kafka's setting names).
 */
public record SnapshotPolicy(long maxRecordBytesBetweenSnapshots, long maxSnapshotIntervalMs) {
    public static final String MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS = "metadata.log.max.record.bytes.between.snapshots";
    public static final String MAX_SNAPSHOT_INTERVAL_MS = "metadata.log.max.snapshot.interval.ms";
    public static final long DEFAULT_MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS = 20L * 1024 * 1024;
    public static final long DEFAULT_MAX_SNAPSHOT_INTERVAL_MS = 60L * 60 * 1000;

    public SnapshotPolicy {
        if (maxRecordBytesBetweenSnapshots < 1) {
            throw new IllegalArgumentException(MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS + " must be at least 1: "
                    + maxRecordBytesBetweenSnapshots);
        }
        if (maxSnapshotIntervalMs < 1) {
            throw new IllegalArgumentException(MAX_SNAPSHOT_INTERVAL_MS + " must be at least 1: " + maxSnapshotIntervalMs);
        }
    }

    /** Reads the two settings from node properties, with Kafka's defaults (20 MiB, 1 hour). */
    public static SnapshotPolicy from(Map<String, String> properties) {
        return new SnapshotPolicy(
                parse(properties, MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS, DEFAULT_MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS),
                parse(properties, MAX_SNAPSHOT_INTERVAL_MS, DEFAULT_MAX_SNAPSHOT_INTERVAL_MS));
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

    /** Whether a snapshot is due after {@code recordBytes} committed since the last one, {@code elapsedMs} ago. */
    public boolean isDue(long recordBytes, long elapsedMs) {
        return recordBytes >= maxRecordBytesBetweenSnapshots || (recordBytes > 0 && elapsedMs >= maxSnapshotIntervalMs);
    }
}
