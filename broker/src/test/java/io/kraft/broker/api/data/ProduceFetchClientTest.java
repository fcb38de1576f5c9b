package io.kraft.broker.api.data;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.broker.ClientRecords;
import io.kraft.broker.StandaloneBroker;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        int count = 5_000;
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

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void compressedRecordsAreReadBackExactly(String codec) throws Exception {
        String topic = "compressed-" + codec;
        broker.createTopic(topic, 3, Map.of());
        int count = 2_000;
        int[] partitions;
        try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec))) {
            partitions = ClientRecords.produce(producer, topic, count);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(broker.bootstrapServers(), Map.of())) {
            ClientRecords.consumeAndVerify(consumer, topic, 3, count, partitions);
        }
        assertEquals(CompressionType.valueOf(codec.toUpperCase(Locale.ROOT)), firstBatch(topic, 0).compressionType(),
                "the producer's codec is kept when the topic says producer");
    }

    @Test
    void topicCompressionTypeRecompressesAnotherCodec() throws Exception {
        broker.createTopic("gzip-topic", 1, Map.of("compression.type", "gzip"));
        int[] partitions;
        try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"))) {
            partitions = ClientRecords.produce(producer, "gzip-topic", 1_000);
        }
        assertEquals(CompressionType.GZIP, firstBatch("gzip-topic", 0).compressionType());
        try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(broker.bootstrapServers(), Map.of())) {
            ClientRecords.consumeAndVerify(consumer, "gzip-topic", 1, 1_000, partitions);
        }
    }

    @Test
    void acksZeroProducerRecordsArrive() throws Exception {
        broker.createTopic("acks-zero", 1, Map.of());
        int[] partitions;
        try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.ACKS_CONFIG, "0", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false"))) {
            partitions = ClientRecords.produce(producer, "acks-zero", 1_000);
        }
        // acks=0 gets no answer: wait until the broker has them all.
        TopicPartition tp = new TopicPartition("acks-zero", 0);
        awaitTrue(() -> broker.replicaManager().partition(tp).orElseThrow().highWatermark() >= 1_000,
                "every acks=0 record to arrive");
        try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(broker.bootstrapServers(), Map.of())) {
            ClientRecords.consumeAndVerify(consumer, "acks-zero", 1, 1_000, partitions);
        }
    }

    private static RecordBatch firstBatch(String topic, int partition) throws Exception {
        Log log = broker.replicaManager().partition(new TopicPartition(topic, partition)).orElseThrow().log();
        ByteBuffer bytes = log.read(log.logStartOffset(), 1, true).records().readFully();
        return new RecordBatch(bytes, 0);
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

    @Test
    void aCompactedTopicRefusesARecordWithoutAKeyAndKeepsTheKeyedOnes() throws Exception {
        broker.createTopic("compacted", 1, Map.of("cleanup.policy", "compact"));
        try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(broker.bootstrapServers(), Map.of())) {
            producer.send(new ProducerRecord<>("compacted", "k".getBytes(), "v1".getBytes())).get(30, TimeUnit.SECONDS);
            ExecutionException refused = assertThrows(ExecutionException.class, () -> producer.send(
                    new ProducerRecord<>("compacted", null, "no key".getBytes())).get(30, TimeUnit.SECONDS));
            assertInstanceOf(InvalidRecordException.class, refused.getCause());
            producer.send(new ProducerRecord<>("compacted", "k".getBytes(), "v2".getBytes())).get(30, TimeUnit.SECONDS);
        }
        Log log = broker.replicaManager().partition(new TopicPartition("compacted", 0)).orElseThrow().log();
        assertEquals(2, log.logEndOffset(), "only the keyed records were written");
    }
}
