package io.kraft.broker.api.data;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.ClientRecords;
import io.kraft.broker.StandaloneBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Offsets as real clients see them: long polls, ListOffsets by time and position, DeleteRecords, offset resets. */
class OffsetsClientTest {
    private static final long WAIT_MS = 30_000;

    @TempDir
    static Path logDir;

    private static StandaloneBroker broker;
    private static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of());
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    /** Records 0..count-1 sent together, so they share batches (lookups then have to look inside batches). */
    private static void produce(String topic, int count) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.LINGER_MS_CONFIG, "50"))) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int seq = 0; seq < count; seq++) {
                acks.add(producer.send(ClientRecords.record(topic, seq)));
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get(WAIT_MS, TimeUnit.MILLISECONDS);
            }
        }
    }

    @Test
    void aLongPollingConsumerReceivesARecordProducedLater() throws Exception {
        broker.createTopic("quiet", 1, Map.of());
        TopicPartition tp = new TopicPartition("quiet", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(broker.bootstrapServers(),
                Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20000"))) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            CompletableFuture<ConsumerRecord<byte[], byte[]>> received = CompletableFuture.supplyAsync(() -> {
                long deadline = System.currentTimeMillis() + WAIT_MS;
                while (System.currentTimeMillis() < deadline) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofSeconds(5));
                    if (!records.isEmpty()) {
                        return records.iterator().next();
                    }
                }
                return null;
            });
            awaitTrue(() -> broker.replicaManager().delayedFetchCount() > 0, "the consumer's fetch to wait at the broker");
            produce("quiet", 1);
            ConsumerRecord<byte[], byte[]> record = received.get(WAIT_MS, TimeUnit.MILLISECONDS);
            assertEquals(0, record.offset());
            assertEquals(ClientRecords.timestamp(0), record.timestamp());
            // Closing would otherwise wait for the next long poll, parked behind it on the connection.
            consumer.close(Duration.ofMillis(100));
        }
    }

    @Test
    void offsetsForTimesAndBeginningAndEndOffsets() throws Exception {
        broker.createTopic("timed", 1, Map.of());
        produce("timed", 100);
        TopicPartition tp = new TopicPartition("timed", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(broker.bootstrapServers(), Map.of())) {
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(
                    Map.of(tp, ClientRecords.timestamp(50)));
            assertEquals(50, found.get(tp).offset(), "the first record at or after the time, inside its batch");
            assertEquals(ClientRecords.timestamp(50), found.get(tp).timestamp());
            assertEquals(0, consumer.offsetsForTimes(Map.of(tp, 0L)).get(tp).offset());
            assertNull(consumer.offsetsForTimes(Map.of(tp, ClientRecords.timestamp(100))).get(tp),
                    "no record that late");
            assertEquals(0L, consumer.beginningOffsets(List.of(tp)).get(tp));
            assertEquals(100L, consumer.endOffsets(List.of(tp)).get(tp));
        }
        Map<TopicPartition, ListOffsetsResultInfo> maxTimestamp = admin.listOffsets(Map.of(tp, OffsetSpec.maxTimestamp()))
                .all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals(99, maxTimestamp.get(tp).offset());
        assertEquals(ClientRecords.timestamp(99), maxTimestamp.get(tp).timestamp());
        assertEquals(0, admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).all().get(WAIT_MS, TimeUnit.MILLISECONDS)
                .get(tp).offset());
        assertEquals(100, admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(WAIT_MS, TimeUnit.MILLISECONDS)
                .get(tp).offset());
    }

    @Test
    void deleteRecordsMovesTheLogStartAndConsumersResetPerAutoOffsetReset() throws Exception {
        broker.createTopic("trimmed", 1, Map.of());
        produce("trimmed", 100);
        TopicPartition tp = new TopicPartition("trimmed", 0);
        long lowWatermark = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(40))).lowWatermarks().get(tp)
                .get(WAIT_MS, TimeUnit.MILLISECONDS).lowWatermark();
        assertEquals(40, lowWatermark);
        ExecutionException beyond = assertThrows(ExecutionException.class, () -> admin.deleteRecords(
                Map.of(tp, RecordsToDelete.beforeOffset(500))).lowWatermarks().get(tp).get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(org.apache.kafka.common.errors.OffsetOutOfRangeException.class, beyond.getCause());

        try (KafkaConsumer<byte[], byte[]> earliest = ClientRecords.consumer(broker.bootstrapServers(),
                Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"))) {
            assertEquals(40L, earliest.beginningOffsets(List.of(tp)).get(tp));
            earliest.assign(List.of(tp));
            earliest.seek(tp, 10);
            ConsumerRecord<byte[], byte[]> first = pollOne(earliest);
            assertEquals(40, first.offset(), "reset to the new log start");
            assertEquals(ClientRecords.timestamp(40), first.timestamp());
        }
        try (KafkaConsumer<byte[], byte[]> latest = ClientRecords.consumer(broker.bootstrapServers(),
                Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest"))) {
            latest.assign(List.of(tp));
            latest.seek(tp, 10);
            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (latest.position(tp) != 100) {
                assertTrue(System.currentTimeMillis() < deadline, "the consumer was not reset to the end");
                assertTrue(latest.poll(Duration.ofMillis(200)).isEmpty(), "a latest reset reads nothing old");
            }
        }
        try (KafkaConsumer<byte[], byte[]> none = ClientRecords.consumer(broker.bootstrapServers(),
                Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none"))) {
            none.assign(List.of(tp));
            none.seek(tp, 10);
            OffsetOutOfRangeException e = assertThrows(OffsetOutOfRangeException.class, () -> {
                long deadline = System.currentTimeMillis() + WAIT_MS;
                while (System.currentTimeMillis() < deadline) {
                    none.poll(Duration.ofMillis(200));
                }
            });
            assertEquals(10L, e.offsetOutOfRangePartitions().get(tp));
        }
    }

    @Test
    void deleteRecordsUpToTheHighWatermark() throws Exception {
        broker.createTopic("emptied", 1, Map.of());
        produce("emptied", 10);
        TopicPartition tp = new TopicPartition("emptied", 0);
        long lowWatermark = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(-1))).lowWatermarks().get(tp)
                .get(WAIT_MS, TimeUnit.MILLISECONDS).lowWatermark();
        assertEquals(10, lowWatermark, "-1 deletes up to the high watermark");
    }

    private static ConsumerRecord<byte[], byte[]> pollOne(KafkaConsumer<byte[], byte[]> consumer) {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (System.currentTimeMillis() < deadline) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                return records.iterator().next();
            }
        }
        throw new AssertionError("no record arrived");
    }
}
