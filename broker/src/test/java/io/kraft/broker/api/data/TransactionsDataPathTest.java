package io.kraft.broker.api.data;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.ClientRecords;
import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.TxnWire;
import io.kraft.broker.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition side of transactions with Apache kafka-clients as judges: transactions are driven by hand (producer
 * ids from InitProducerId, transactional Produce, the WriteTxnMarkers a coordinator sends), then read by a
 * {@code read_committed} consumer (exactly the committed records, in order, stopping at an open transaction and
 * woken when it commits) and a {@code read_uncommitted} one (everything), listed by {@code Admin.listOffsets} with
 * either isolation and described by {@code Admin.describeProducers}; {@code Admin.abortTransaction} (what
 * kafka-transactions.sh abort sends) ends a hanging transaction.
 */
class TransactionsDataPathTest {
    private static final String TOPIC = "txn";

    @TempDir
    Path logDir;

    @Test
    void readCommittedSeesExactlyTheCommittedRecordsAndStopsAtAnOpenTransaction() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.port());
             Admin admin = admin(broker)) {
            broker.createTopic(TOPIC, 2, Map.of());
            TxnWire.Producer p1 = wire.newProducer();
            TxnWire.Producer p2 = wire.newProducer();
            List<List<String>> committed = List.of(new ArrayList<>(), new ArrayList<>());
            List<List<String>> all = List.of(new ArrayList<>(), new ArrayList<>());

            // p1 and p2 interleave on both partitions; p1 commits, p2 aborts.
            produce(wire, p1, 0, all, "c1-0", "c1-1");
            produce(wire, p2, 0, all, "a2-0");
            produce(wire, p1, 1, all, "c1-2");
            produce(wire, p2, 1, all, "a2-1", "a2-2");
            produce(wire, p1, 0, all, "c1-3");
            wire.end(p1, true, TOPIC, 0, 1);
            committed.get(0).addAll(List.of("c1-0", "c1-1", "c1-3"));
            committed.get(1).add("c1-2");
            produce(wire, p2, 0, all, "a2-3");
            wire.end(p2, false, TOPIC, 0, 1);

            // p1's second transaction stays open: read_committed stops at its first offset.
            long openAt = produce(wire, p1, 0, all, "open-0");
            produce(wire, p2, 0, all, "after-open");  // p2 again, a new transaction, committed below
            wire.end(p2, true, TOPIC, 0);

            TopicPartition tp0 = new TopicPartition(TOPIC, 0);
            TopicPartition tp1 = new TopicPartition(TOPIC, 1);
            assertEquals(openAt, latest(admin, tp0, IsolationLevel.READ_COMMITTED), "LATEST read_committed = LSO");
            assertEquals(broker.replicaManager().partition(new io.kraft.storage.log.TopicPartition(TOPIC, 0))
                    .orElseThrow().highWatermark(), latest(admin, tp0, IsolationLevel.READ_UNCOMMITTED));

            Map<Long, ProducerState> producers = describeProducers(admin, tp0);
            assertEquals(openAt, producers.get(p1.id).currentTransactionStartOffset().orElse(-1));
            assertEquals(0, producers.get(p1.id).coordinatorEpoch().orElse(-1));
            assertTrue(producers.get(p2.id).currentTransactionStartOffset().isEmpty());
            assertEquals(p1.epoch, producers.get(p1.id).producerEpoch());

            try (KafkaConsumer<byte[], byte[]> uncommitted = consumer(broker, "read_uncommitted", 500);
                 KafkaConsumer<byte[], byte[]> readCommitted = consumer(broker, "read_committed", 30_000)) {
                uncommitted.assign(List.of(tp0, tp1));
                readCommitted.assign(List.of(tp0, tp1));
                assertEquals(all.get(0), valuesUntil(uncommitted, tp0, all.get(0).size(), all.get(1).size()).get(0));

                // Committed records before the open transaction, never an aborted one, and nothing past it.
                List<List<String>> seen = valuesUntil(readCommitted, tp0, committed.get(0).size(),
                        committed.get(1).size());
                assertEquals(committed, seen);
                assertEquals(openAt, readCommitted.position(tp0), "read_committed waits at the open transaction");
                assertTrue(readCommitted.poll(Duration.ofMillis(300)).isEmpty());

                // The commit wakes the long poll (fetch.max.wait.ms is 30 s): the rest arrives at once.
                long before = System.nanoTime();
                wire.end(p1, true, TOPIC, 0);
                List<String> rest = new ArrayList<>();
                await().atMost(10, TimeUnit.SECONDS).until(() -> {
                    for (ConsumerRecord<byte[], byte[]> record : readCommitted.poll(Duration.ofMillis(100))) {
                        rest.add(new String(record.value(), StandardCharsets.UTF_8));
                    }
                    return rest.size() >= 2;
                });
                assertEquals(List.of("open-0", "after-open"), rest);
                assertTrue(System.nanoTime() - before < TimeUnit.SECONDS.toNanos(10));
                assertEquals(latest(admin, tp0, IsolationLevel.READ_UNCOMMITTED),
                        latest(admin, tp0, IsolationLevel.READ_COMMITTED));
                // Its next long poll would hold a graceful close for fetch.max.wait.ms.
                readCommitted.close(CloseOptions.timeout(Duration.ZERO));
            }
        }
    }

    @Test
    void markersAreRefusedWithKafkasErrors() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.port());
             WireClient client = new WireClient(broker.port())) {
            ApiVersionsResponse versions = client.send(new ApiVersionsRequest.Builder().build((short) 3));
            ApiVersionsResponseData.ApiVersion markers = versions.data().apiKeys().find(ApiKeys.WRITE_TXN_MARKERS.id);
            assertEquals(1, markers.minVersion());
            assertEquals(1, markers.maxVersion());
            assertEquals(0, versions.data().apiKeys().find(ApiKeys.DESCRIBE_PRODUCERS.id).maxVersion());
            assertTrue(versions.data().finalizedFeatures().isEmpty(), "no transaction.version feature yet");
            broker.createTopic(TOPIC, 1, Map.of());
            TxnWire.Producer producer = wire.newProducer();
            wire.produce(producer, TOPIC, 0, "x");
            wire.end(producer, true, TOPIC, 0);
            long end = broker.replicaManager().partition(new io.kraft.storage.log.TopicPartition(TOPIC, 0))
                    .orElseThrow().logEndOffset();
            assertEquals(List.of(Errors.TRANSACTION_COORDINATOR_FENCED),
                    wire.writeMarkers(producer.id, producer.epoch, -5, false, TOPIC, 0));
            assertEquals(List.of(Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.NONE),
                    wire.writeMarkers(producer.id, producer.epoch, 1, true, TOPIC, 7, 0));
            // The coordinator fences the producer with a newer epoch; the old epoch's markers are refused after it.
            assertEquals(List.of(Errors.NONE),
                    wire.writeMarkers(producer.id, (short) (producer.epoch + 1), 1, false, TOPIC, 0));
            assertEquals(List.of(Errors.INVALID_PRODUCER_EPOCH),
                    wire.writeMarkers(producer.id, producer.epoch, 1, false, TOPIC, 0));
            assertEquals(List.of(Errors.INVALID_REQUEST), wire.writeMarkers(producer.id, (short) -1, 1, false, TOPIC, 0));
            assertEquals(List.of(Errors.UNKNOWN_TOPIC_OR_PARTITION),
                    wire.writeMarkers(producer.id, producer.epoch, 1, false, "no-such-topic", 0));
            assertEquals(end + 2, broker.replicaManager().partition(new io.kraft.storage.log.TopicPartition(TOPIC,
                    0)).orElseThrow().logEndOffset(), "only the two accepted markers were written");
        }
    }

    @Test
    void adminAbortTransactionEndsAHangingTransaction() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(logDir, Map.of());
             TxnWire wire = new TxnWire(broker.port());
             Admin admin = admin(broker)) {
            broker.createTopic(TOPIC, 1, Map.of());
            TopicPartition tp = new TopicPartition(TOPIC, 0);
            TxnWire.Producer hanging = wire.newProducer();
            TxnWire.Producer other = wire.newProducer();
            long start = wire.produce(hanging, TOPIC, 0, "hanging-0", "hanging-1");
            wire.produce(other, TOPIC, 0, "ok");
            wire.end(other, true, TOPIC, 0);
            assertEquals(start, latest(admin, tp, IsolationLevel.READ_COMMITTED));

            // What kafka-transactions.sh abort does: WriteTxnMarkers (ABORT) straight to the partition leader.
            ProducerState state = describeProducers(admin, tp).get(hanging.id);
            admin.abortTransaction(new AbortTransactionSpec(tp, state.producerId(), (short) state.producerEpoch(),
                    state.coordinatorEpoch().orElse(0))).all().get(30, TimeUnit.SECONDS);

            long end = latest(admin, tp, IsolationLevel.READ_UNCOMMITTED);
            assertEquals(end, latest(admin, tp, IsolationLevel.READ_COMMITTED), "nothing is open any more");
            assertTrue(describeProducers(admin, tp).get(hanging.id).currentTransactionStartOffset().isEmpty());
            try (KafkaConsumer<byte[], byte[]> consumer = consumer(broker, "read_committed", 500)) {
                consumer.assign(List.of(tp));
                List<String> values = new ArrayList<>();
                await().atMost(30, TimeUnit.SECONDS).until(() -> {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        values.add(new String(record.value(), StandardCharsets.UTF_8));
                    }
                    return consumer.position(tp) >= end;
                });
                assertEquals(List.of("ok"), values);
            }
        }
    }

    private static long produce(TxnWire wire, TxnWire.Producer producer, int partition, List<List<String>> all,
                                String... values) throws Exception {
        long offset = wire.produce(producer, TOPIC, partition, values);
        all.get(partition).addAll(List.of(values));
        return offset;
    }

    /** Polls until {@code count0} and {@code count1} records arrived from partitions 0 and 1; their values. */
    private static List<List<String>> valuesUntil(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp0,
                                                  int count0, int count1) {
        List<List<String>> values = List.of(new ArrayList<>(), new ArrayList<>());
        await().atMost(30, TimeUnit.SECONDS).until(() -> {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                values.get(record.partition()).add(new String(record.value(), StandardCharsets.UTF_8));
            }
            return values.get(0).size() >= count0 && values.get(1).size() >= count1;
        });
        return values;
    }

    private static KafkaConsumer<byte[], byte[]> consumer(StandaloneBroker broker, String isolation, int maxWaitMs) {
        return ClientRecords.consumer(broker.bootstrapServers(), Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, String.valueOf(maxWaitMs)));
    }

    private static Admin admin(StandaloneBroker broker) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        return Admin.create(props);
    }

    private static long latest(Admin admin, TopicPartition tp, IsolationLevel isolation) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(isolation))
                .partitionResult(tp).get(30, TimeUnit.SECONDS).offset();
    }

    private static Map<Long, ProducerState> describeProducers(Admin admin, TopicPartition tp) throws Exception {
        Map<Long, ProducerState> byId = new java.util.HashMap<>();
        for (ProducerState state : admin.describeProducers(List.of(tp)).partitionResult(tp)
                .get(30, TimeUnit.SECONDS).activeProducers()) {
            byId.put(state.producerId(), state);
        }
        return byId;
    }
}
