package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The snapshot settings a node reads from its Kafka-named properties. */
class SnapshotPolicyTest {

    @Test
    void absentKeysTakeKafkasDefaultsAndOtherKeysAreIgnored() {
        assertEquals(new SnapshotPolicy(20L * 1024 * 1024, 3_600_000L),
                SnapshotPolicy.from(Map.of("node.id", "1", "metadata.log.dir", "/tmp/meta")));
    }

    @Test
    void readsBothKeys() {
        assertEquals(new SnapshotPolicy(4096, 60_000), SnapshotPolicy.from(Map.of(
                "metadata.log.max.record.bytes.between.snapshots", "4096",
                "metadata.log.max.snapshot.interval.ms", " 60000 ")));
    }

    @Test
    void anInvalidValueNamesItsKey() {
        ConfigException zero = assertThrows(ConfigException.class, () -> SnapshotPolicy.from(
                Map.of("metadata.log.max.record.bytes.between.snapshots", "0")));
        assertTrue(zero.getMessage().contains("metadata.log.max.record.bytes.between.snapshots"), zero.getMessage());
        ConfigException text = assertThrows(ConfigException.class, () -> SnapshotPolicy.from(
                Map.of("metadata.log.max.snapshot.interval.ms", "hourly")));
        assertTrue(text.getMessage().contains("metadata.log.max.snapshot.interval.ms"), text.getMessage());
    }

    @Test
    void aSnapshotIsDueBySizeOrByTimeOnceSomethingCommitted() {
        SnapshotPolicy policy = new SnapshotPolicy(100, 1_000);
        assertTrue(policy.isDue(100, 0));
        assertTrue(policy.isDue(1, 1_000));
        assertFalse(policy.isDue(0, 5_000), "nothing new, nothing to snapshot");
        assertFalse(policy.isDue(99, 999));
    }
}
