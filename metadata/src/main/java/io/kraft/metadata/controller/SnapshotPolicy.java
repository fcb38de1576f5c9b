package io.kraft.metadata.controller;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ConfigType;
import io.kraft.config.Importance;
import io.kraft.config.ParsedConfig;
import io.kraft.config.Validator;
import java.util.Map;

/**
 * When a node snapshots its committed metadata: after this many bytes of committed records or this long since the
 * last snapshot, whichever comes first (Kafka's setting names and defaults).
 */
public record SnapshotPolicy(long maxRecordBytesBetweenSnapshots, long maxSnapshotIntervalMs) {
    public static final String MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS = "metadata.log.max.record.bytes.between.snapshots";
    public static final String MAX_SNAPSHOT_INTERVAL_MS = "metadata.log.max.snapshot.interval.ms";
    public static final long DEFAULT_MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS = 20L * 1024 * 1024;
    public static final long DEFAULT_MAX_SNAPSHOT_INTERVAL_MS = 60L * 60 * 1000;

    private static final ConfigDef DEFINITION = new ConfigDef()
            .define(MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS, ConfigType.LONG, DEFAULT_MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS,
                    Validator.atLeast(1), Importance.HIGH,
                    "The most bytes of committed metadata records a node replays after its latest snapshot before it "
                            + "takes a new one.")
            .define(MAX_SNAPSHOT_INTERVAL_MS, ConfigType.LONG, DEFAULT_MAX_SNAPSHOT_INTERVAL_MS, Validator.atLeast(1),
                    Importance.HIGH,
                    "The longest time a node waits, once new metadata records committed, before it takes a new "
                            + "snapshot.");

    public SnapshotPolicy {
        if (maxRecordBytesBetweenSnapshots < 1) {
            throw new IllegalArgumentException(MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS + " must be at least 1: "
                    + maxRecordBytesBetweenSnapshots);
        }
        if (maxSnapshotIntervalMs < 1) {
            throw new IllegalArgumentException(MAX_SNAPSHOT_INTERVAL_MS + " must be at least 1: " + maxSnapshotIntervalMs);
        }
    }

    /** The definitions of the two keys: names, types, Kafka's defaults, validation and documentation. */
    public static ConfigDef definition() {
        return DEFINITION;
    }

    /**
     * Reads the two settings from a node's Kafka-named properties; absent keys take Kafka's defaults (20 MiB, 1 hour)
     * and other keys are ignored (they belong to other components).
     *
     * @throws io.kraft.config.ConfigException naming the key when a value is invalid
     */
    public static SnapshotPolicy from(Map<String, String> properties) {
        ParsedConfig parsed = DEFINITION.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        return new SnapshotPolicy(parsed.getLong(MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS),
                parsed.getLong(MAX_SNAPSHOT_INTERVAL_MS));
    }

    /** Whether a snapshot is due after {@code recordBytes} committed since the last one, {@code elapsedMs} ago. */
    public boolean isDue(long recordBytes, long elapsedMs) {
        return recordBytes >= maxRecordBytesBetweenSnapshots || (recordBytes > 0 && elapsedMs >= maxSnapshotIntervalMs);
    }
}
