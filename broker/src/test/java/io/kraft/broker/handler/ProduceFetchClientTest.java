package io.kraft.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real kafka-clients producers and consumers against a standalone broker: the produce and fetch paths end to end. */
class ProduceFetchClientTest {
    @TempDir
    static Path logDir;

    private static StandaloneBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of());
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void defaultIdempotentProducerRecordsAreReadBackExactly() throws Exception {
        broker.createTopic("events", 6, Map.of());
        int count = 20_000;
        int[] partitions;
        try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(broker.bootstrapServers(), Map.of())) {
            partitions = ClientRecords.produce(producer, "events", count);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(broker.bootstrapServers(), Map.of())) {
            ClientRecords.consumeAndVerify(consumer, "events", 6, count, partitions);
        }
        long total = 0;
        for (int p = 0; p < 6; p++) {
            total += broker.replicaManager().partition(new TopicPartition("events", p)).orElseThrow().highWatermark();
        }
        assertEquals(count, total);
    }

    @Test
    void acksOneProducerWithoutIdempotence() throws Exception {
        broker.createTopic("acks-one", 2, Map.of());
        int[] partitions;
        try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false"))) {
            partitions = ClientRecords.produce(producer, "acks-one", 2_000);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(broker.bootstrapServers(), Map.of())) {
            ClientRecords.consumeAndVerify(consumer, "acks-one", 2, 2_000, partitions);
        }
    }
}
