package io.kraft.server.txn;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kafka-clients' transactional producer and Admin against a combined node: commit and abort across 6 partitions of 2
 * topics (each partition gets its markers; read_committed consumers see only the committed records), zombie fencing, the coordinator's abort of a transaction past its timeout,
 * and describeTransactions / listTransactions.
 */
class TransactionsEndToEndTest {
    private static final List<String> TOPICS = List.of("txn-a", "txn-b");

    @TempDir
    Path dir;
    private TestNode node;

    @BeforeEach
    void start() throws Exception {
        node = new TestNode(dir, Map.of("transaction.max.timeout.ms", "120000")).start();
        for (String topic : TOPICS) {
            node.createTopic(topic, 3, Map.of());
        }
    }

    @AfterEach
    void stop() {
        node.close();
    }

    @Test
    void commitsAndAbortsAcrossSixPartitionsOfTwoTopicsWithAMarkerInEach() throws Exception {
        try (KafkaProducer<String, String> producer = producer("tx-commit-abort", Map.of())) {
            producer.initTransactions();
            producer.beginTransaction();
            sendToEveryPartition(producer, "committed");
            producer.commitTransaction();
            assertEquals(TransactionState.COMPLETE_COMMIT, awaitState("tx-commit-abort",
                    TransactionState.COMPLETE_COMMIT).state());
            producer.beginTransaction();
            sendToEveryPartition(producer, "aborted");
            producer.abortTransaction();
            awaitState("tx-commit-abort", TransactionState.COMPLETE_ABORT);
        }
        // Each partition: a committed record, its COMMIT marker, an aborted record, its ABORT marker.
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        allPartitions().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                node.admin().listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((tp, info) ->
                        assertEquals(4L, info.offset(), "end offset of " + tp)));
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer("read_uncommitted")) {
            consumer.assign(allPartitions());
            consumer.seekToBeginning(allPartitions());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                return values.size() >= 12;
            });
        }
        assertEquals(6, values.stream().filter(v -> v.startsWith("committed")).count(), values.toString());
        assertEquals(6, values.stream().filter(v -> v.startsWith("aborted")).count(), values.toString());

        // read_committed: exactly the committed records, never an aborted one, and the whole log read (to the end
        // offset, markers included) so no aborted record can still be on its way.
        List<String> committed = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer("read_committed")) {
            consumer.assign(allPartitions());
            consumer.seekToBeginning(allPartitions());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> committed.add(r.value()));
                return allPartitions().stream().allMatch(tp -> consumer.position(tp) == 4L);
            });
        }
        assertEquals(6, committed.size(), committed.toString());
        assertTrue(committed.stream().allMatch(v -> v.startsWith("committed")), committed.toString());
    }

    @Test
    void aSecondProducerWithTheSameIdFencesTheFirstAndAbortsItsTransaction() throws Exception {
        try (KafkaProducer<String, String> zombie = producer("tx-zombie", Map.of());
             KafkaProducer<String, String> successor = producer("tx-zombie", Map.of())) {
            zombie.initTransactions();
            zombie.beginTransaction();
            zombie.send(new ProducerRecord<>("txn-a", 0, "k", "zombie")).get(30, TimeUnit.SECONDS);
            TransactionDescription open = awaitState("tx-zombie", TransactionState.ONGOING);
            successor.initTransactions();
            TransactionDescription after = describe("tx-zombie");
            assertTrue(after.producerEpoch() > open.producerEpoch(), after.toString());
            assertEquals(open.producerId(), after.producerId());
            KafkaException fenced = assertThrows(KafkaException.class, zombie::commitTransaction);
            assertTrue(fenced instanceof ProducerFencedException
                    || fenced.getCause() instanceof ProducerFencedException, fenced.toString());
            successor.beginTransaction();
            successor.send(new ProducerRecord<>("txn-a", 0, "k", "successor")).get(30, TimeUnit.SECONDS);
            successor.commitTransaction();
            awaitState("tx-zombie", TransactionState.COMPLETE_COMMIT);
        }
    }

    @Test
    void aTransactionPastItsTimeoutIsAbortedAndItsProducerFenced() throws Exception {
        try (KafkaProducer<String, String> producer = producer("tx-timeout",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "1500"))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txn-b", 1, "k", "stalled")).get(30, TimeUnit.SECONDS);
            TransactionDescription aborted = awaitState("tx-timeout", TransactionState.COMPLETE_ABORT);
            assertEquals(1, aborted.producerEpoch(), "the abort bumps the epoch, fencing the stalled producer");
            assertThrows(KafkaException.class, producer::commitTransaction);
        }
        // The ABORT marker follows the stalled record.
        Map<TopicPartition, OffsetSpec> latest = Map.of(new TopicPartition("txn-b", 1), OffsetSpec.latest());
        assertEquals(2L, node.admin().listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                .get(new TopicPartition("txn-b", 1)).offset());
    }

    @Test
    void adminListsAndDescribesTransactionsWithFilters() throws Exception {
        try (KafkaProducer<String, String> open = producer("tx-list-open", Map.of());
             KafkaProducer<String, String> done = producer("tx-list-done", Map.of())) {
            open.initTransactions();
            open.beginTransaction();
            open.send(new ProducerRecord<>("txn-a", 2, "k", "v")).get(30, TimeUnit.SECONDS);
            done.initTransactions();
            TransactionDescription description = awaitState("tx-list-open", TransactionState.ONGOING);
            assertEquals(List.of(new TopicPartition("txn-a", 2)), List.copyOf(description.topicPartitions()));
            assertEquals(60_000, description.transactionTimeoutMs());
            assertTrue(description.transactionStartTimeMs().isPresent());
            Admin admin = node.admin();
            Collection<TransactionListing> ongoing = admin.listTransactions(new ListTransactionsOptions()
                    .filterStates(List.of(TransactionState.ONGOING))).all().get(30, TimeUnit.SECONDS);
            assertEquals(List.of("tx-list-open"), ongoing.stream().map(TransactionListing::transactionalId).toList());
            Collection<TransactionListing> all = admin.listTransactions().all().get(30, TimeUnit.SECONDS);
            assertEquals(2, all.size(), all.toString());
            Collection<TransactionListing> byId = admin.listTransactions(new ListTransactionsOptions()
                    .filterProducerIds(List.of(description.producerId()))).all().get(30, TimeUnit.SECONDS);
            assertEquals(List.of("tx-list-open"), byId.stream().map(TransactionListing::transactionalId).toList());
            // v1: open at least this long (only an open transaction has a start); v2: a pattern on the id.
            await().atMost(Duration.ofSeconds(10)).until(() -> admin.listTransactions(new ListTransactionsOptions()
                    .filterOnDuration(1)).all().get(30, TimeUnit.SECONDS).stream()
                    .map(TransactionListing::transactionalId).toList().equals(List.of("tx-list-open")));
            assertEquals(0, admin.listTransactions(new ListTransactionsOptions().filterOnDuration(3_600_000)).all()
                    .get(30, TimeUnit.SECONDS).size());
            Collection<TransactionListing> byPattern = admin.listTransactions(new ListTransactionsOptions()
                    .filterOnTransactionalIdPattern("tx-list-d.*")).all().get(30, TimeUnit.SECONDS);
            assertEquals(List.of("tx-list-done"), byPattern.stream().map(TransactionListing::transactionalId).toList());
            open.abortTransaction();
        }
        // Brokers support versions 1 and 2 of the transaction protocol; this cluster finalizes none, so clients use 1.
        org.apache.kafka.clients.admin.FeatureMetadata features = node.admin().describeFeatures().featureMetadata()
                .get(30, TimeUnit.SECONDS);
        assertEquals(2, features.supportedFeatures().get("transaction.version").maxVersion());
        assertTrue(!features.finalizedFeatures().containsKey("transaction.version"), features.toString());
        KafkaException unknown = assertThrows(java.util.concurrent.ExecutionException.class, () ->
                node.admin().describeTransactions(List.of("no-such-id")).all().get(30, TimeUnit.SECONDS))
                .getCause() instanceof KafkaException k ? k : null;
        assertTrue(unknown instanceof org.apache.kafka.common.errors.TransactionalIdNotFoundException,
                String.valueOf(unknown));
    }

    @Test
    void theCoordinatorsStateSurvivesARestartAndTheNextProducerFencesTheOldEpoch() throws Exception {
        TransactionDescription before;
        try (KafkaProducer<String, String> producer = producer("tx-restart", Map.of())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txn-a", 1, "k", "v")).get(30, TimeUnit.SECONDS);
            producer.commitTransaction();
            before = awaitState("tx-restart", TransactionState.COMPLETE_COMMIT);
        }
        node.restart();
        TransactionDescription after = awaitState("tx-restart", TransactionState.COMPLETE_COMMIT);
        assertEquals(before.producerId(), after.producerId());
        assertEquals(before.producerEpoch(), after.producerEpoch());
        try (KafkaProducer<String, String> next = producer("tx-restart", Map.of())) {
            next.initTransactions();
            assertEquals(before.producerEpoch() + 1, describe("tx-restart").producerEpoch());
        }
    }

    @Test
    void aTransactionalProduceToAPartitionNotInTheTransactionIsRefusedAndWritesNothing() throws Exception {
        try (KafkaProducer<String, String> producer = producer("tx-verify", Map.of())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txn-a", 0, "k", "added")).get(30, TimeUnit.SECONDS);
            TransactionDescription open = awaitState("tx-verify", TransactionState.ONGOING);
            MemoryRecords stray = MemoryRecords.withTransactionalRecords(Compression.NONE, open.producerId(),
                    (short) open.producerEpoch(), 0, new SimpleRecord(1_000L, "k".getBytes(), "stray".getBytes()));
            ProduceRequestData request = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(10_000)
                    .setTransactionalId("tx-verify");
            request.topicData().add(new ProduceRequestData.TopicProduceData().setName("txn-b")
                    .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(2)
                            .setRecords(stray))));
            try (WireClient client = new WireClient(node.port())) {
                short version = 11;
                int id = client.send(ApiKeys.PRODUCE, version, request);
                ProduceResponseData response = new ProduceResponseData(client.receive(ApiKeys.PRODUCE, version, id),
                        version);
                assertEquals(org.apache.kafka.common.protocol.Errors.INVALID_TXN_STATE.code(),
                        response.responses().iterator().next().partitionResponses().get(0).errorCode());
            }
            assertEquals(0L, node.admin().listOffsets(Map.of(new TopicPartition("txn-b", 2), OffsetSpec.latest()))
                    .all().get(30, TimeUnit.SECONDS).get(new TopicPartition("txn-b", 2)).offset());
            producer.commitTransaction();
        }
    }

    private TransactionDescription awaitState(String transactionalId, TransactionState state) {
        TransactionDescription[] last = new TransactionDescription[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            last[0] = describe(transactionalId);
            return last[0].state() == state;
        });
        return last[0];
    }

    private TransactionDescription describe(String transactionalId) throws Exception {
        return node.admin().describeTransactions(List.of(transactionalId)).description(transactionalId)
                .get(30, TimeUnit.SECONDS);
    }

    private static List<TopicPartition> allPartitions() {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : TOPICS) {
            for (int p = 0; p < 3; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
        }
        return partitions;
    }

    private static void sendToEveryPartition(KafkaProducer<String, String> producer, String prefix) throws Exception {
        for (TopicPartition tp : allPartitions()) {
            producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), "k", prefix + "-" + tp))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private KafkaProducer<String, String> producer(String transactionalId, Map<String, String> extra) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        props.putAll(extra);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    private KafkaConsumer<String, String> consumer(String isolationLevel) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }
}
