package io.kraft.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopicConfigResolverTest {

    private static TopicConfigResolver resolver(Map<String, String> brokerValues) {
        return new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(brokerValues, ConfigSource.STATIC_BROKER_CONFIG)));
    }

    @Test
    void aTopicWithoutOverridesGetsTheBrokersEffectiveValues() {
        TopicLogSettings topic = resolver(Map.of()).resolve(Map.of());
        assertEquals(1024 * 1024 * 1024, topic.segmentBytes());
        assertEquals(604_800_000L, topic.segmentMs());
        assertEquals(4096, topic.indexIntervalBytes());
        assertEquals(10 * 1024 * 1024, topic.segmentIndexBytes());
        assertEquals(604_800_000L, topic.retentionMs());
        assertEquals(-1L, topic.retentionBytes());
        assertEquals(Set.of("delete"), topic.cleanupPolicy());
        assertTrue(topic.deletionEnabled());
        assertFalse(topic.compactionEnabled());
        assertEquals(86_400_000L, topic.deleteRetentionMs());
        assertEquals(0.5, topic.minCleanableDirtyRatio());
        assertEquals(Long.MAX_VALUE, topic.flushMessages());
        assertEquals(Long.MAX_VALUE, topic.flushMs());
        assertEquals(1_048_588, topic.maxMessageBytes());
        assertEquals("CreateTime", topic.messageTimestampType());
        assertEquals("producer", topic.compressionType());
        assertEquals(0L, topic.segmentJitterMs());
        assertEquals(60_000L, topic.fileDeleteDelayMs());
        assertEquals(0L, topic.minCompactionLagMs());
        assertEquals(Long.MAX_VALUE, topic.maxCompactionLagMs());
        assertEquals(Long.MAX_VALUE, topic.messageTimestampBeforeMaxMs());
        assertEquals(3_600_000L, topic.messageTimestampAfterMaxMs());
        assertFalse(topic.preallocate());
        assertEquals(1, topic.minInsyncReplicas());
        assertFalse(topic.uncleanLeaderElectionEnable());
        assertEquals(Map.of(), topic.overrides());
        for (ConfigValue entry : topic.entries()) {
            assertEquals(ConfigSource.DEFAULT_CONFIG, entry.source(), entry.name());
        }
        assertEquals(List.copyOf(TopicConfigs.names()), topic.entries().stream().map(ConfigValue::name).toList());
    }

    @Test
    void brokerSettingsFlowIntoTopicsWithTheBrokersSource() {
        TopicLogSettings topic = resolver(Map.of("log.retention.minutes", "30", "log.segment.bytes", "2048",
                "log.roll.hours", "1")).resolve(Map.of());
        assertEquals(1_800_000L, topic.retentionMs());
        assertEquals(2048, topic.segmentBytes());
        assertEquals(3_600_000L, topic.segmentMs());
        assertEquals(new ConfigValue("retention.ms", 1_800_000L, ConfigSource.STATIC_BROKER_CONFIG,
                "log.retention.minutes", "1800000"), topic.entry("retention.ms"));
        assertEquals(ConfigSource.STATIC_BROKER_CONFIG, topic.source("segment.bytes"));
        assertEquals("log.segment.bytes", topic.entry("segment.bytes").sourceName());
        assertEquals(ConfigSource.DEFAULT_CONFIG, topic.source("max.message.bytes"));
        assertEquals("message.max.bytes", topic.entry("max.message.bytes").sourceName());
    }

    @Test
    void topicOverridesWinWithDynamicTopicSource() {
        Map<String, String> overrides = Map.of("retention.ms", "-1", "cleanup.policy", "compact,delete",
                "segment.bytes", "14", "message.timestamp.type", "LogAppendTime", "compression.type", "zstd",
                "min.cleanable.dirty.ratio", "0.9", "flush.ms", "0");
        TopicLogSettings topic = resolver(Map.of("log.retention.ms", "1000")).resolve(overrides);
        assertEquals(-1L, topic.retentionMs());
        assertEquals(Set.of("compact", "delete"), topic.cleanupPolicy());
        assertTrue(topic.compactionEnabled());
        assertEquals(14, topic.segmentBytes());
        assertEquals("LogAppendTime", topic.messageTimestampType());
        assertEquals("zstd", topic.compressionType());
        assertEquals(0.9, topic.minCleanableDirtyRatio());
        assertEquals(0L, topic.flushMs());
        assertEquals(new ConfigValue("retention.ms", -1L, ConfigSource.DYNAMIC_TOPIC_CONFIG, "retention.ms", "-1"),
                topic.entry("retention.ms"));
        assertEquals(ConfigSource.DYNAMIC_TOPIC_CONFIG, topic.source("cleanup.policy"));
        assertEquals(ConfigSource.DEFAULT_CONFIG, topic.source("segment.ms"));
        assertEquals(overrides, topic.overrides());
    }

    @Test
    void anUnknownTopicKeyIsRejected() {
        TopicConfigResolver resolver = resolver(Map.of());
        UnknownConfigException unknown = assertThrows(UnknownConfigException.class,
                () -> resolver.resolve(Map.of("retention.foo", "1")));
        assertEquals("Unknown topic configuration retention.foo", unknown.getMessage());
        assertEquals("retention.foo", unknown.key());

        // Broker names are not topic names, even where they mean the same thing.
        assertThrows(UnknownConfigException.class, () -> resolver.resolve(Map.of("log.retention.ms", "1")));
        UnknownConfigException firstSorted = assertThrows(UnknownConfigException.class,
                () -> resolver.resolve(Map.of("zz", "1", "aa", "2", "retention.ms", "5")));
        assertEquals("aa", firstSorted.key());
    }

    @Test
    void anInvalidTopicOverrideNamesKeyValueAndExpectation() {
        TopicConfigResolver resolver = resolver(Map.of());
        assertEquals("Invalid value -2 for configuration retention.ms: expected a long at least -1",
                assertThrows(ConfigException.class, () -> resolver.resolve(Map.of("retention.ms", "-2"))).getMessage());
        assertEquals("Invalid value delete,archive for configuration cleanup.policy: "
                        + "expected a comma-separated list that is not empty and with items in [compact, delete]",
                assertThrows(ConfigException.class,
                        () -> resolver.resolve(Map.of("cleanup.policy", "delete,archive"))).getMessage());
        assertEquals("Invalid value 0 for configuration segment.ms: expected a long at least 1",
                assertThrows(ConfigException.class, () -> resolver.resolve(Map.of("segment.ms", "0"))).getMessage());
        assertEquals("Invalid value 10x for configuration max.message.bytes: expected an int at least 0",
                assertThrows(ConfigException.class,
                        () -> resolver.resolve(Map.of("max.message.bytes", "10x"))).getMessage());
    }

    @Test
    void theTopicDefinitionCarriesTheBrokersEffectiveValuesAsDefaults() {
        ConfigDef definition = resolver(Map.of("log.retention.hours", "1", "log.flush.interval.ms", "250"))
                .definition();
        assertEquals(TopicConfigs.names(), definition.names());
        assertEquals(3_600_000L, definition.key("retention.ms").defaultValue());
        assertEquals(250L, definition.key("flush.ms").defaultValue());
        assertEquals(List.of("delete"), definition.key("cleanup.policy").defaultValue());
        assertEquals("an int at least 14", definition.key("segment.bytes").expectation());
    }

    @Test
    void replicationSettingsClientsSendAtTopicCreationAreAccepted() {
        TopicLogSettings topic = resolver(Map.of("min.insync.replicas", "2", "log.roll.jitter.hours", "1"))
                .resolve(Map.of("unclean.leader.election.enable", "true", "min.compaction.lag.ms", "5000"));
        assertEquals(2, topic.minInsyncReplicas());
        assertEquals(ConfigSource.STATIC_BROKER_CONFIG, topic.source("min.insync.replicas"));
        assertTrue(topic.uncleanLeaderElectionEnable());
        assertEquals(ConfigSource.DYNAMIC_TOPIC_CONFIG, topic.source("unclean.leader.election.enable"));
        assertEquals(5000L, topic.minCompactionLagMs());
        assertEquals(3_600_000L, topic.segmentJitterMs(), "log.roll.jitter.hours is converted to ms");
        ConfigException e = assertThrows(ConfigException.class,
                () -> resolver(Map.of()).resolve(Map.of("min.insync.replicas", "0")));
        assertEquals("min.insync.replicas", e.key());
    }

    @Test
    void eachTopicSettingNamesItsBrokerFallbacksInPrecedenceOrder() {
        assertEquals(List.of("log.retention.ms", "log.retention.minutes", "log.retention.hours"),
                TopicConfigs.brokerSynonyms("retention.ms"));
        assertEquals(List.of("log.roll.ms", "log.roll.hours"), TopicConfigs.brokerSynonyms("segment.ms"));
        assertEquals(List.of("log.flush.interval.ms", "log.flush.scheduler.interval.ms"),
                TopicConfigs.brokerSynonyms("flush.ms"));
        assertEquals(List.of("log.cleaner.min.cleanable.ratio"), TopicConfigs.brokerSynonyms("min.cleanable.dirty.ratio"));
        assertEquals(List.of("compression.type"), TopicConfigs.brokerSynonyms("compression.type"));
        assertTrue(TopicConfigs.isTopicConfig("segment.index.bytes"));
        assertFalse(TopicConfigs.isTopicConfig("log.segment.bytes"));
        assertThrows(UnknownConfigException.class, () -> TopicConfigs.brokerSynonyms("nope"));
        for (String topicKey : TopicConfigs.names()) {
            for (String brokerKey : TopicConfigs.brokerSynonyms(topicKey)) {
                assertTrue(LogConfigs.definition().contains(brokerKey), brokerKey);
            }
        }
    }

    @Test
    void resolvedSettingsAreImmutable() {
        TopicLogSettings topic = resolver(Map.of()).resolve(Map.of("cleanup.policy", "compact"));
        assertThrows(UnsupportedOperationException.class, () -> topic.cleanupPolicy().add("delete"));
        assertThrows(UnsupportedOperationException.class, () -> topic.overrides().put("x", "y"));
        assertThrows(UnsupportedOperationException.class, () -> topic.entries().clear());
        assertThrows(UnknownConfigException.class, () -> topic.entry("nope"));
    }

    @Test
    void throttledReplicaListsAreEmptyByDefaultAndTakeAStarOrPartitionBrokerPairs() {
        TopicConfigResolver resolver = resolver(Map.of());
        ConfigValue unset = resolver.resolve(Map.of()).entry(TopicConfigs.LEADER_REPLICATION_THROTTLED_REPLICAS);
        assertEquals(List.of(), unset.value());
        assertEquals(ConfigSource.DEFAULT_CONFIG, unset.source());
        assertEquals(List.of("0:1", "1:2"), resolver.resolve(Map.of(
                TopicConfigs.FOLLOWER_REPLICATION_THROTTLED_REPLICAS, "0:1, 1:2"))
                .entry(TopicConfigs.FOLLOWER_REPLICATION_THROTTLED_REPLICAS).value());
        assertEquals(List.of("*"), resolver.resolve(Map.of(TopicConfigs.LEADER_REPLICATION_THROTTLED_REPLICAS, "*"))
                .entry(TopicConfigs.LEADER_REPLICATION_THROTTLED_REPLICAS).value());
        for (String bad : List.of("0", "a:1", "*,0:1", "0:1:2")) {
            assertThrows(ConfigException.class, () -> resolver.resolve(Map.of(
                    TopicConfigs.LEADER_REPLICATION_THROTTLED_REPLICAS, bad)), bad);
        }
    }
}
