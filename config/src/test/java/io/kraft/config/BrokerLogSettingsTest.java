package io.kraft.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BrokerLogSettingsTest {

    private static BrokerLogSettings broker(Map<String, String> values) {
        return BrokerLogSettings.from(LogConfigs.definition().parse(values, ConfigSource.STATIC_BROKER_CONFIG));
    }

    @Test
    void defaultsAreKafkas() {
        BrokerLogSettings defaults = broker(Map.of());
        assertEquals(List.of("/tmp/kafka-logs"), defaults.logDirs());
        assertEquals(1024 * 1024 * 1024, defaults.segmentBytes());
        assertEquals(168 * 3_600_000L, defaults.rollMs());
        assertEquals(4096, defaults.indexIntervalBytes());
        assertEquals(10 * 1024 * 1024, defaults.indexSizeMaxBytes());
        assertEquals(7 * 24 * 3_600_000L, defaults.retentionMs());
        assertEquals(-1L, defaults.retentionBytes());
        assertEquals(300_000L, defaults.retentionCheckIntervalMs());
        assertEquals(Set.of("delete"), defaults.cleanupPolicy());
        assertEquals(true, defaults.cleanerEnable());
        assertEquals(86_400_000L, defaults.cleanerDeleteRetentionMs());
        assertEquals(0.5, defaults.cleanerMinCleanableRatio());
        assertEquals(Long.MAX_VALUE, defaults.flushIntervalMessages());
        assertEquals(Long.MAX_VALUE, defaults.flushIntervalMs());
        assertEquals(Long.MAX_VALUE, defaults.flushSchedulerIntervalMs());
        assertEquals(1_048_588, defaults.messageMaxBytes());
        assertEquals("CreateTime", defaults.messageTimestampType());
        assertEquals("producer", defaults.compressionType());
        assertEquals(86_400_000L, defaults.producerIdExpirationMs());
    }

    @Test
    void producerIdExpirationIsABrokerOnlySetting() {
        assertEquals(60_000L, broker(Map.of("producer.id.expiration.ms", "60000")).producerIdExpirationMs());
        assertThrows(ConfigException.class, () -> broker(Map.of("producer.id.expiration.ms", "0")));
        assertFalse(TopicConfigs.names().contains(LogConfigs.PRODUCER_ID_EXPIRATION_MS));
    }

    @Test
    void retentionMsBeatsMinutesWhichBeatHours() {
        assertEquals(2 * 3_600_000L, broker(Map.of("log.retention.hours", "2")).retentionMs());
        assertEquals(3 * 60_000L,
                broker(Map.of("log.retention.hours", "2", "log.retention.minutes", "3")).retentionMs());
        assertEquals(4L, broker(Map.of("log.retention.hours", "2", "log.retention.minutes", "3",
                "log.retention.ms", "4")).retentionMs());
        assertEquals(4L, broker(Map.of("log.retention.hours", "2", "log.retention.ms", "4")).retentionMs());
    }

    @Test
    void theRetentionSourceIsTheKeyThatWon() {
        ConfigValue byDefault = broker(Map.of()).topicDefaults().entry(TopicConfigs.RETENTION_MS);
        assertEquals(ConfigSource.DEFAULT_CONFIG, byDefault.source());
        assertEquals("log.retention.hours", byDefault.sourceName());

        ConfigValue byMinutes = broker(Map.of("log.retention.minutes", "10")).topicDefaults()
                .entry(TopicConfigs.RETENTION_MS);
        assertEquals(ConfigSource.STATIC_BROKER_CONFIG, byMinutes.source());
        assertEquals("log.retention.minutes", byMinutes.sourceName());
        assertEquals(600_000L, byMinutes.value());
        assertEquals("retention.ms=600000 (STATIC_BROKER_CONFIG via log.retention.minutes)", byMinutes.toString());
    }

    @Test
    void anyNegativeRetentionMeansUnlimited() {
        assertEquals(-1L, broker(Map.of("log.retention.ms", "-1")).retentionMs());
        assertEquals(-1L, broker(Map.of("log.retention.hours", "-1")).retentionMs());
        assertEquals(-1L, broker(Map.of("log.retention.minutes", "-5", "log.retention.hours", "1")).retentionMs());
    }

    @Test
    void aZeroRetentionIsRejectedNamingTheKeyThatSetIt() {
        ConfigException byMs = assertThrows(ConfigException.class, () -> broker(Map.of("log.retention.ms", "0")));
        assertEquals("Invalid value 0 for configuration log.retention.ms: "
                + "expected -1 (unlimited) or a retention of at least 1 ms", byMs.getMessage());
        ConfigException byHours = assertThrows(ConfigException.class,
                () -> broker(Map.of("log.retention.hours", "0")));
        assertEquals("log.retention.hours", byHours.key());
    }

    @Test
    void rollMsBeatsRollHours() {
        assertEquals(3_600_000L, broker(Map.of("log.roll.hours", "1")).rollMs());
        assertEquals(5_000L, broker(Map.of("log.roll.hours", "1", "log.roll.ms", "5000")).rollMs());
        assertEquals("log.roll.ms", broker(Map.of("log.roll.ms", "5000")).topicDefaults()
                .entry(TopicConfigs.SEGMENT_MS).sourceName());
    }

    @Test
    void flushIntervalFallsBackToTheSchedulerInterval() {
        assertEquals(2_000L, broker(Map.of("log.flush.scheduler.interval.ms", "2000")).flushIntervalMs());
        assertEquals(500L, broker(Map.of("log.flush.scheduler.interval.ms", "2000",
                "log.flush.interval.ms", "500")).flushIntervalMs());
    }

    @Test
    void logDirsBeatsLogDir() {
        assertEquals(List.of("/x"), broker(Map.of("log.dir", "/x")).logDirs());
        assertEquals(List.of("/a", "/b"), broker(Map.of("log.dir", "/x", "log.dirs", "/a, /b")).logDirs());
        ConfigException empty = assertThrows(ConfigException.class, () -> broker(Map.of("log.dirs", "")));
        assertEquals("Invalid value  for configuration log.dirs: expected a comma-separated list that is not empty",
                empty.getMessage());
    }

    @Test
    void brokerValuesAreValidatedWithKafkasRules() {
        assertEquals("Invalid value 13 for configuration log.segment.bytes: expected an int at least 14",
                assertThrows(ConfigException.class, () -> broker(Map.of("log.segment.bytes", "13"))).getMessage());
        assertEquals("Invalid value 1.1 for configuration log.cleaner.min.cleanable.ratio: "
                        + "expected a double between 0 and 1",
                assertThrows(ConfigException.class,
                        () -> broker(Map.of("log.cleaner.min.cleanable.ratio", "1.1"))).getMessage());
        assertEquals("Invalid value createtime for configuration log.message.timestamp.type: "
                        + "expected a string in [CreateTime, LogAppendTime]",
                assertThrows(ConfigException.class,
                        () -> broker(Map.of("log.message.timestamp.type", "createtime"))).getMessage());
        assertEquals("Invalid value brotli for configuration compression.type: "
                        + "expected a string in [uncompressed, zstd, lz4, snappy, gzip, producer]",
                assertThrows(ConfigException.class,
                        () -> broker(Map.of("compression.type", "brotli"))).getMessage());
        assertEquals("Invalid value  for configuration log.cleanup.policy: "
                        + "expected a comma-separated list that is not empty and with items in [compact, delete]",
                assertThrows(ConfigException.class,
                        () -> broker(Map.of("log.cleanup.policy", ""))).getMessage());
        assertEquals("Invalid value 3 for configuration log.index.size.max.bytes: expected an int at least 4",
                assertThrows(ConfigException.class,
                        () -> broker(Map.of("log.index.size.max.bytes", "3"))).getMessage());
        assertEquals("Invalid value 0 for configuration log.flush.interval.messages: expected a long at least 1",
                assertThrows(ConfigException.class,
                        () -> broker(Map.of("log.flush.interval.messages", "0"))).getMessage());
    }

    @Test
    void aConfigurationWithoutTheLogKeysIsRefused() {
        ParsedConfig unrelated = new ConfigDef()
                .define("node.id", ConfigType.INT, 1, Importance.HIGH, "Id.")
                .parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG);
        assertThrows(IllegalArgumentException.class, () -> BrokerLogSettings.from(unrelated));
    }

    @Test
    void theLogKeysJoinALargerBrokerDefinition() {
        ConfigDef brokerDefinition = new ConfigDef()
                .define("node.id", ConfigType.INT, ConfigDef.NO_DEFAULT, Validator.atLeast(0), Importance.HIGH, "Id.");
        LogConfigs.addTo(brokerDefinition);
        ParsedConfig config = brokerDefinition.parse(Map.of("node.id", "3", "log.segment.bytes", "4096"),
                ConfigSource.STATIC_BROKER_CONFIG);
        assertEquals(3, config.getInt("node.id"));
        assertEquals(4096, BrokerLogSettings.from(config).segmentBytes());
    }
}
