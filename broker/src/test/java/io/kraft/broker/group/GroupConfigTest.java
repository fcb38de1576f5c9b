package io.kraft.broker.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.group.consumer.MigrationPolicy;
import io.kraft.broker.group.consumer.PartitionAssignor;
import io.kraft.broker.group.share.ShareGroupConfig;
import io.kraft.broker.group.share.state.ShareCoordinatorConfig;
import io.kraft.config.ConfigException;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The group coordinator's, consumer groups' and share groups' settings: Kafka's names, defaults and refusals. */
class GroupConfigTest {
    @Test
    void absentSettingsTakeKafkasDefaults() {
        GroupConfig config = GroupConfig.defaults();
        assertEquals(new GroupConfig(6_000, 1_800_000, 3_000, Integer.MAX_VALUE, 4_096, 10_080 * 60_000L, 600_000L,
                50, (short) 3, 104_857_600, 5_000), config);
        ConsumerGroupConfig consumer = ConsumerGroupConfig.defaults();
        assertEquals(45_000, consumer.sessionTimeoutMs());
        assertEquals(5_000, consumer.heartbeatIntervalMs());
        assertEquals(Integer.MAX_VALUE, consumer.maxSize());
        assertEquals("uniform", consumer.assignors().get(0).name());
        assertEquals(MigrationPolicy.BIDIRECTIONAL, consumer.migrationPolicy());
    }

    @Test
    void givenSettingsAreReadAndOthersIgnored() {
        GroupConfig config = GroupConfig.fromProperties(Map.of(GroupConfig.OFFSETS_RETENTION_MINUTES, "2",
                GroupConfig.OFFSETS_TOPIC_REPLICATION_FACTOR, "1", "log.dirs", "/tmp/x"));
        assertEquals(120_000L, config.offsetsRetentionMs());
        assertEquals((short) 1, config.offsetsTopicReplicationFactor());
        ConsumerGroupConfig consumer = ConsumerGroupConfig.fromProperties(Map.of(ConsumerGroupConfig.ASSIGNORS,
                "org.apache.kafka.coordinator.group.assignor.RangeAssignor, uniform",
                ConsumerGroupConfig.MIGRATION_POLICY, "Upgrade"));
        assertEquals("range", consumer.assignors().get(0).name());
        assertEquals(2, consumer.assignors().stream().map(PartitionAssignor::name).distinct().count());
        assertEquals(MigrationPolicy.UPGRADE, consumer.migrationPolicy());
    }

    @Test
    void invalidValuesAreRefusedNamingTheKey() {
        assertRefusedNamingTheKey(GroupConfig::fromProperties, Map.of(GroupConfig.GROUP_MAX_SIZE, "0"),
                Map.of(GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "many"),
                Map.of(GroupConfig.OFFSETS_RETENTION_MINUTES, "0"),
                Map.of(GroupConfig.OFFSETS_COMMIT_TIMEOUT_MS, "99999999999"));
        assertThrows(InvalidGroupConfigException.class, () -> GroupConfig.fromProperties(Map.of(
                GroupConfig.GROUP_MIN_SESSION_TIMEOUT_MS, "10000", GroupConfig.GROUP_MAX_SESSION_TIMEOUT_MS, "9000")));
        assertRefusedNamingTheKey(ConsumerGroupConfig::fromProperties,
                Map.of(ConsumerGroupConfig.SESSION_TIMEOUT_MS, "0"),
                Map.of(ConsumerGroupConfig.MIGRATION_POLICY, "sideways"),
                Map.of(ConsumerGroupConfig.ASSIGNORS, ""));
        assertThrows(IllegalArgumentException.class, () -> ConsumerGroupConfig.fromProperties(Map.of(
                ConsumerGroupConfig.HEARTBEAT_INTERVAL_MS, "45000")));
        assertThrows(IllegalArgumentException.class, () -> ConsumerGroupConfig.fromProperties(Map.of(
                ConsumerGroupConfig.ASSIGNORS, "sticky")));
    }

    @Test
    void shareSettingsTakeKafkasDefaultsAndRefuseBadValuesNamingTheKey() {
        assertEquals(new ShareGroupConfig(45_000, 5_000, 200, 10, 30_000, 5, 2_000, false),
                ShareGroupConfig.defaults());
        assertEquals(new ShareCoordinatorConfig(50, 3, 104_857_600, 5_000), ShareCoordinatorConfig.fromProperties(
                Map.of()));
        assertTrue(ShareGroupConfig.fromProperties(Map.of(ShareGroupConfig.AUTO_OFFSET_RESET, "earliest"))
                .resetToEarliest());
        assertRefusedNamingTheKey(ShareGroupConfig::fromProperties, Map.of(ShareGroupConfig.SESSION_TIMEOUT_MS, "0"),
                Map.of(ShareGroupConfig.MAX_GROUPS, "ten"),
                Map.of(ShareGroupConfig.DELIVERY_COUNT_LIMIT, "11"),
                Map.of(ShareGroupConfig.DELIVERY_COUNT_LIMIT, "1"),
                Map.of(ShareGroupConfig.AUTO_OFFSET_RESET, "none"));
        assertThrows(IllegalArgumentException.class, () -> ShareGroupConfig.fromProperties(Map.of(
                ShareGroupConfig.HEARTBEAT_INTERVAL_MS, "45000")));
        assertRefusedNamingTheKey(ShareCoordinatorConfig::fromProperties,
                Map.of(ShareCoordinatorConfig.STATE_TOPIC_NUM_PARTITIONS, "0"),
                Map.of(ShareCoordinatorConfig.WRITE_TIMEOUT_MS, "soon"));
    }

    /** Each of {@code bad} (one setting each) is a ConfigException naming its key. */
    @SafeVarargs
    private static void assertRefusedNamingTheKey(Function<Map<String, String>, ?> parse, Map<String, String>... bad) {
        for (Map<String, String> config : bad) {
            ConfigException e = assertThrows(ConfigException.class, () -> parse.apply(config));
            assertTrue(e.getMessage().contains(config.keySet().iterator().next()), e.getMessage());
        }
    }
}
