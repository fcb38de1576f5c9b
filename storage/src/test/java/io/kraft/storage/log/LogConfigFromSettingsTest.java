package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.config.TopicLogSettings;
import io.kraft.storage.record.CompressionType;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LogConfigFromSettingsTest {
    private static TopicLogSettings resolve(Map<String, String> broker, Map<String, String> topic) {
        BrokerLogSettings brokerSettings = BrokerLogSettings.from(
                LogConfigs.definition().parse(broker, ConfigSource.STATIC_BROKER_CONFIG));
        return new TopicConfigResolver(brokerSettings).resolve(topic);
    }

    @Test
    void kafkaDefaultsAgreeBetweenTheConfigModuleAndTheLog() {
        assertEquals(LogConfig.defaults(), LogConfig.from(resolve(Map.of(), Map.of())));
    }

    @Test
    void topicOverridesWinOverBrokerSettings() {
        LogConfig config = LogConfig.from(resolve(
                Map.of("log.segment.bytes", "1048576", "log.retention.minutes", "30", "log.cleanup.policy", "compact"),
                Map.of("retention.bytes", "5000", "cleanup.policy", "compact,delete",
                        "message.timestamp.type", "LogAppendTime", "max.message.bytes", "2000")));
        assertEquals(1048576, config.segmentBytes());
        assertEquals(30 * 60 * 1000L, config.retentionMs());
        assertEquals(5000, config.retentionBytes());
        assertTrue(config.compact());
        assertTrue(config.delete());
        assertTrue(config.logAppendTime());
        assertEquals(2000, config.maxMessageBytes());
    }

    @Test
    void compressionTimestampBoundsAndProducerExpiryReachTheLog() {
        BrokerLogSettings broker = BrokerLogSettings.from(LogConfigs.definition().parse(
                Map.of("producer.id.expiration.ms", "60000", "compression.type", "lz4"),
                ConfigSource.STATIC_BROKER_CONFIG));
        TopicLogSettings topic = new TopicConfigResolver(broker).resolve(Map.of(
                "message.timestamp.before.max.ms", "5000", "message.timestamp.after.max.ms", "7000"));
        LogConfig config = LogConfig.from(topic, broker);
        assertEquals("lz4", config.compressionType());
        assertEquals(Optional.of(CompressionType.LZ4), config.targetCompression());
        assertEquals(5000, config.messageTimestampBeforeMaxMs());
        assertEquals(7000, config.messageTimestampAfterMaxMs());
        assertEquals(60_000, config.producerIdExpirationMs());
        assertEquals(86_400_000L, LogConfig.from(topic).producerIdExpirationMs(), "without the broker: Kafka's default");

        LogConfig uncompressed = LogConfig.from(resolve(Map.of(), Map.of("compression.type", "uncompressed")));
        assertEquals(Optional.of(CompressionType.NONE), uncompressed.targetCompression());
        assertEquals(Optional.empty(), LogConfig.defaults().targetCompression(), "producer keeps the producer's codec");
        assertThrows(IllegalArgumentException.class, () -> LogConfig.builder().compressionType("brotli").build());
    }

    @Test
    void brokerCompactPolicyAloneDisablesDeletion() {
        LogConfig config = LogConfig.from(resolve(Map.of("log.cleanup.policy", "compact"), Map.of()));
        assertTrue(config.compact());
        assertFalse(config.delete());
    }
}
