package io.kraft.server.txn;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.controller.ClusterFeatures;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.InvalidUpdateVersionException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kafka-clients 4.4 against a combined node formatted with {@code transaction.version=2}, so the producer runs
 * transaction protocol version 2 (KIP-890 part 2): no AddPartitionsToTxn or AddOffsetsToTxn, an epoch bump per
 * commit or abort. Commit and abort over 6 partitions, the exactly-once loop with sendOffsetsToTransaction, zombie
 * fencing, and a late write at the epoch before a commit refused.
 */
class TransactionsVersion2EndToEndTest {
    private static final List<String> TOPICS = List.of("v2-a", "v2-b");

    @TempDir
    Path dir;
    private TestNode node;

    @BeforeEach
    void start() throws Exception {
        BootstrapMetadata.write(dir.resolve("metadata"),
                ClusterFeatures.levelRecords(Map.of(ClusterFeatures.TRANSACTION_VERSION, 2)));
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
    void describeFeaturesShowsLevel2Finalized() throws Exception {
        FeatureMetadata features = node.admin().describeFeatures().featureMetadata().get(30, TimeUnit.SECONDS);
        assertEquals(2, features.finalizedFeatures().get("transaction.version").maxVersionLevel(),
                features.toString());
        assertEquals(2, features.supportedFeatures().get("transaction.version").maxVersion());
    }

    @Test
    void updateFeaturesMovesTheLevelDownAndUpWhileTransactionsGoOnAndRefusesWhatIsNotSupported() throws Exception {
        try (KafkaProducer<String, String> producer = producer("v2-levels")) {
            producer.initTransactions();
            commitOne(producer, "at-2");
            updateLevel((short) 1, FeatureUpdate.UpgradeType.SAFE_DOWNGRADE);
            assertEquals(1, finalizedLevel());
            commitOne(producer, "after-downgrade");
            try (KafkaProducer<String, String> v1 = producer("v2-levels-new")) {
                v1.initTransactions();
                commitOne(v1, "new-at-1");
                short epoch = (short) describe("v2-levels-new").producerEpoch();
                commitOne(v1, "new-at-1-again");
                assertEquals(epoch, describe("v2-levels-new").producerEpoch(), "a version 1 commit keeps the epoch");
            }
            updateLevel((short) 2, FeatureUpdate.UpgradeType.UPGRADE);
            assertEquals(2, finalizedLevel());
            commitOne(producer, "after-upgrade");
        }
        ExecutionException tooHigh = assertThrows(ExecutionException.class,
                () -> updateLevel((short) 3, FeatureUpdate.UpgradeType.UPGRADE));
        assertTrue(tooHigh.getCause() instanceof InvalidUpdateVersionException, tooHigh.toString());
        ExecutionException notADowngrade = assertThrows(ExecutionException.class,
                () -> updateLevel((short) 1, FeatureUpdate.UpgradeType.UPGRADE));
        assertTrue(notADowngrade.getCause() instanceof InvalidUpdateVersionException, notADowngrade.toString());
        assertEquals(2, finalizedLevel(), "a refused update changes nothing");
    }

    private void commitOne(KafkaProducer<String, String> producer, String value) throws Exception {
        producer.beginTransaction();
        producer.send(new ProducerRecord<>("v2-a", 0, "k", value)).get(30, TimeUnit.SECONDS);
        producer.commitTransaction();
    }

    private void updateLevel(short level, FeatureUpdate.UpgradeType type) throws Exception {
        node.admin().updateFeatures(Map.of("transaction.version", new FeatureUpdate(level, type)),
                new UpdateFeaturesOptions()).all().get(30, TimeUnit.SECONDS);
    }

    private short finalizedLevel() {
        return await().atMost(Duration.ofSeconds(30)).until(() -> node.admin().describeFeatures().featureMetadata()
                .get(30, TimeUnit.SECONDS).finalizedFeatures().get("transaction.version").maxVersionLevel(),
                level -> level > 0);
    }

    @Test
    void commitAndAbortBumpTheEpochAndReadCommittedSeesExactlyTheCommittedRecords() throws Exception {
        try (KafkaProducer<String, String> producer = producer("v2-commit-abort")) {
            producer.initTransactions();
            short initial = (short) describe("v2-commit-abort").producerEpoch();
            producer.beginTransaction();
            sendToEveryPartition(producer, "committed");
            producer.commitTransaction();
            TransactionDescription committed = awaitState("v2-commit-abort", TransactionState.COMPLETE_COMMIT);
            assertEquals(initial + 1, committed.producerEpoch(), "a version 2 commit bumps the epoch");
            producer.beginTransaction();
            sendToEveryPartition(producer, "aborted");
            producer.abortTransaction();
            TransactionDescription aborted = awaitState("v2-commit-abort", TransactionState.COMPLETE_ABORT);
            assertEquals(initial + 2, aborted.producerEpoch());
            producer.beginTransaction();
            sendToEveryPartition(producer, "committed-again");
            producer.commitTransaction();
        }
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer("read_committed", null)) {
            consumer.assign(allPartitions());
            consumer.seekToBeginning(allPartitions());
            // Each partition: three data records and three markers.
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                return allPartitions().stream().allMatch(tp -> consumer.position(tp) == 6L);
            });
        }
        assertEquals(12, values.size(), values.toString());
        assertTrue(values.stream().allMatch(v -> v.startsWith("committed")), values.toString());
    }

    @Test
    void concurrentProducersEachCommitEveryTransaction() throws Exception {
        int producers = 8;
        int transactions = 15;
        List<CompletableFuture<Void>> runs = new ArrayList<>();
        for (int i = 0; i < producers; i++) {
            String id = "v2-many-" + i;
            runs.add(CompletableFuture.runAsync(() -> {
                try (KafkaProducer<String, String> producer = producer(id)) {
                    producer.initTransactions();
                    for (int t = 0; t < transactions; t++) {
                        producer.beginTransaction();
                        for (TopicPartition tp : allPartitions()) {
                            producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), id, "t" + t));
                        }
                        producer.commitTransaction();
                    }
                }
            }));
        }
        CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        for (int i = 0; i < producers; i++) {
            TransactionDescription done = awaitState("v2-many-" + i, TransactionState.COMPLETE_COMMIT);
            assertEquals(transactions, done.producerEpoch(), "one bump per commit");
        }
    }

    @Test
    void theExactlyOnceLoopCommitsTheGroupsOffsetsWithTheTransaction() throws Exception {
        try (KafkaProducer<String, String> input = new KafkaProducer<>(plainProducerProps(), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 30; i++) {
                input.send(new ProducerRecord<>("v2-a", i % 3, "k" + i, "in-" + i)).get(30, TimeUnit.SECONDS);
            }
        }
        int copied = 0;
        try (KafkaConsumer<String, String> consumer = consumer("read_committed", "v2-group");
             KafkaProducer<String, String> producer = producer("v2-eos")) {
            producer.initTransactions();
            consumer.subscribe(List.of("v2-a"));
            long deadline = System.currentTimeMillis() + 60_000;
            while (copied < 30 && System.currentTimeMillis() < deadline) {
                var records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (var record : records) {
                    producer.send(new ProducerRecord<>("v2-b", record.partition(), record.key(), record.value()));
                    offsets.put(new TopicPartition(record.topic(), record.partition()),
                            new OffsetAndMetadata(record.offset() + 1));
                    copied++;
                }
                ConsumerGroupMetadata group = consumer.groupMetadata();
                producer.sendOffsetsToTransaction(offsets, group);
                producer.commitTransaction();
            }
        }
        assertEquals(30, copied);
        Map<TopicPartition, OffsetAndMetadata> committed = node.admin().listConsumerGroupOffsets("v2-group")
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        for (int p = 0; p < 3; p++) {
            assertEquals(10L, committed.get(new TopicPartition("v2-a", p)).offset(), committed.toString());
        }
    }

    @Test
    void aSecondProducerWithTheSameIdFencesTheFirst() throws Exception {
        try (KafkaProducer<String, String> zombie = producer("v2-fence");
             KafkaProducer<String, String> successor = producer("v2-fence")) {
            zombie.initTransactions();
            zombie.beginTransaction();
            zombie.send(new ProducerRecord<>("v2-a", 0, "k", "zombie")).get(30, TimeUnit.SECONDS);
            successor.initTransactions();
            Exception fenced = assertThrows(Exception.class, () -> {
                zombie.send(new ProducerRecord<>("v2-a", 1, "k", "late")).get(30, TimeUnit.SECONDS);
                zombie.commitTransaction();
            });
            assertTrue(isFenced(fenced), fenced.toString());
            successor.beginTransaction();
            successor.send(new ProducerRecord<>("v2-a", 0, "k", "successor")).get(30, TimeUnit.SECONDS);
            successor.commitTransaction();
        }
        awaitState("v2-fence", TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void aWriteAtTheEpochBeforeACommitIsRefused() throws Exception {
        short oldEpoch;
        long producerId;
        try (KafkaProducer<String, String> producer = producer("v2-late")) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("v2-a", 0, "k", "in-time")).get(30, TimeUnit.SECONDS);
            TransactionDescription open = awaitState("v2-late", TransactionState.ONGOING);
            producerId = open.producerId();
            oldEpoch = (short) open.producerEpoch();
            producer.commitTransaction();
        }
        awaitState("v2-late", TransactionState.COMPLETE_COMMIT);
        for (int partition : List.of(0, 1)) {
            MemoryRecords late = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, oldEpoch,
                    partition == 0 ? 1 : 0, new SimpleRecord(1_000L, "k".getBytes(), "late".getBytes()));
            ProduceRequestData request = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(10_000)
                    .setTransactionalId("v2-late");
            request.topicData().add(new ProduceRequestData.TopicProduceData().setName("v2-a")
                    .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(partition)
                            .setRecords(late))));
            try (WireClient client = new WireClient(node.port())) {
                short version = 12;
                int id = client.send(ApiKeys.PRODUCE, version, request);
                ProduceResponseData response = new ProduceResponseData(client.receive(ApiKeys.PRODUCE, version, id),
                        version);
                short error = response.responses().iterator().next().partitionResponses().get(0).errorCode();
                assertTrue(error == Errors.INVALID_PRODUCER_EPOCH.code() || error == Errors.PRODUCER_FENCED.code(),
                        "partition " + partition + ": " + Errors.forCode(error));
            }
        }
        assertEquals(TransactionState.COMPLETE_COMMIT, describe("v2-late").state(), "no transaction was reopened");
    }

    /** Whether the failure is the producer's fencing, as a send or a commit reports it. */
    private static boolean isFenced(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ProducerFencedException
                    || t instanceof org.apache.kafka.common.errors.InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }

    private void sendToEveryPartition(KafkaProducer<String, String> producer, String value) throws Exception {
        for (TopicPartition tp : allPartitions()) {
            producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), "k", value + "-" + tp))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private List<TopicPartition> allPartitions() {
        List<TopicPartition> all = new ArrayList<>();
        TOPICS.forEach(topic -> {
            for (int p = 0; p < 3; p++) {
                all.add(new TopicPartition(topic, p));
            }
        });
        return all;
    }

    private TransactionDescription describe(String transactionalId) throws Exception {
        return node.admin().describeTransactions(List.of(transactionalId)).description(transactionalId)
                .get(30, TimeUnit.SECONDS);
    }

    private TransactionDescription awaitState(String transactionalId, TransactionState state) {
        return await().atMost(Duration.ofSeconds(30)).until(() -> describe(transactionalId),
                d -> d.state() == state);
    }

    private Properties plainProducerProps() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        return props;
    }

    private KafkaProducer<String, String> producer(String transactionalId) {
        Properties props = plainProducerProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    private KafkaConsumer<String, String> consumer(String isolationLevel, String groupId) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        if (groupId != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }
}
