package io.kraft.server.txn;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.GroupCoordinator;
import io.kraft.broker.group.OffsetsTopic;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.server.CombinedNode;
import io.kraft.server.TestFaultHandler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transactional kafka-clients producer against three combined nodes (three brokers, a quorum of three controllers),
 * with 6 partitions of 2 topics at replication factor 3 whose leaders are spread over the brokers: every leader
 * writes its markers; a transaction open while the active controller's node stops still commits, through the new
 * active controller, which has the coordinator's whole state from the metadata log; and a transaction's group offsets
 * commit after the group coordinator's node stops, as the new leader of the group's partition loads them pending.
 */
class TransactionsQuorumTest {
    private static final String CLUSTER_ID = "VHJhbnNhY3Rpb25zUXVvcnVt";
    private static final List<String> TOPICS = List.of("qa", "qb");

    @TempDir
    Path dir;
    private final Map<Integer, CombinedNode> nodes = new TreeMap<>();
    private final TestFaultHandler faults = new TestFaultHandler();
    private Admin admin;

    @BeforeEach
    void start() throws Exception {
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        String voters = "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort();
        for (int id = 1; id <= 3; id++) {
            Map<String, String> properties = new HashMap<>(Map.of("controller.quorum.voters", voters,
                    "log.dirs", dir.resolve("node-" + id).resolve("logs").toString(),
                    "offsets.topic.replication.factor", "3"));
            nodes.put(id, CombinedNode.start(id, CLUSTER_ID, dir.resolve("node-" + id).resolve("metadata"),
                    "PLAINTEXT://localhost:0", properties, topicConfigs, faults));
        }
        for (CombinedNode node : nodes.values()) {
            awaitTrue(node::isBrokerUnfenced, "broker " + node.nodeId() + " to be unfenced");
        }
        admin = admin();
        admin.createTopics(TOPICS.stream().map(t -> new NewTopic(t, 3, (short) 3)).toList()).all()
                .get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        if (admin != null) {
            admin.close();
        }
        nodes.values().stream().map(node -> CompletableFuture.runAsync(node::close)).toList()
                .forEach(CompletableFuture::join);
        faults.assertNone();
    }

    @Test
    void everyLeaderWritesTheMarkersOfItsPartitions() throws Exception {
        try (KafkaProducer<String, String> producer = producer("q-commit")) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, "one");
            producer.commitTransaction();
            producer.beginTransaction();
            send(producer, "two");
            producer.abortTransaction();
        }
        awaitState("q-commit", TransactionState.COMPLETE_ABORT);
        Map<TopicPartition, OffsetSpec> latest = allPartitions().stream()
                .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((tp, info) ->
                        assertEquals(4L, info.offset(), "end offset of " + tp)));
        assertEquals(12, readAll().size());
    }

    @Test
    void aSecondProducerFencesTheFirstThroughAnotherBroker() throws Exception {
        try (KafkaProducer<String, String> zombie = producer("q-zombie");
             KafkaProducer<String, String> successor = producer("q-zombie")) {
            zombie.initTransactions();
            zombie.beginTransaction();
            send(zombie, "zombie");
            successor.initTransactions();
            org.apache.kafka.common.KafkaException fenced = org.junit.jupiter.api.Assertions.assertThrows(
                    org.apache.kafka.common.KafkaException.class, zombie::commitTransaction);
            assertTrue(fenced instanceof org.apache.kafka.common.errors.ProducerFencedException
                    || fenced.getCause() instanceof org.apache.kafka.common.errors.ProducerFencedException,
                    fenced.toString());
            successor.beginTransaction();
            send(successor, "successor");
            successor.commitTransaction();
        }
        awaitState("q-zombie", TransactionState.COMPLETE_COMMIT);
        // Each partition: the zombie's record and its ABORT marker, the successor's record and its COMMIT marker.
        Map<TopicPartition, OffsetSpec> latest = allPartitions().stream()
                .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((tp, info) ->
                        assertEquals(4L, info.offset(), "end offset of " + tp)));
    }

    @Test
    void aTransactionOpenAcrossAControllerFailoverCommits() throws Exception {
        try (KafkaProducer<String, String> producer = producer("q-failover")) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, "before");
            int active = nodes.keySet().stream().filter(id -> nodes.get(id).isQuorumLeader()).findFirst()
                    .orElseThrow();
            nodes.remove(active).close();
            admin.close();
            admin = admin();
            producer.commitTransaction();
            awaitState("q-failover", TransactionState.COMPLETE_COMMIT);
            producer.beginTransaction();
            send(producer, "after");
            producer.commitTransaction();
        }
        awaitState("q-failover", TransactionState.COMPLETE_COMMIT);
        List<String> values = readAll();
        assertEquals(6, values.stream().filter(v -> v.startsWith("before")).distinct().count(), values.toString());
        assertEquals(6, values.stream().filter(v -> v.startsWith("after")).distinct().count(), values.toString());
        assertEquals(12, values.size(), "each record once: " + values);
    }

    @Test
    void aTransactionsGroupOffsetsCommitAfterTheGroupsCoordinatorStopsMidTransaction() throws Exception {
        String group = "q-group";
        Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(new TopicPartition("qa", 0), new OffsetAndMetadata(7),
                new TopicPartition("qb", 2), new OffsetAndMetadata(9));
        try (KafkaProducer<String, String> producer = producer("q-offsets")) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, "with-offsets");
            producer.sendOffsetsToTransaction(offsets, new ConsumerGroupMetadata(group));
            TopicDescription offsetsTopic = admin.describeTopics(List.of(OffsetsTopic.NAME)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(OffsetsTopic.NAME);
            int partition = GroupCoordinator.partitionFor(group, offsetsTopic.partitions().size());
            int coordinator = offsetsTopic.partitions().get(partition).leader().id();
            nodes.remove(coordinator).close();
            admin.close();
            admin = admin();
            producer.commitTransaction();
        }
        awaitState("q-offsets", TransactionState.COMPLETE_COMMIT);
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group,
                new ListConsumerGroupOffsetsOptions().requireStable(true)).partitionsToOffsetAndMetadata()
                .get(60, TimeUnit.SECONDS);
        assertEquals(offsets.keySet(), committed.keySet());
        offsets.forEach((tp, offset) -> assertEquals(offset.offset(), committed.get(tp).offset(), tp.toString()));
    }

    private void awaitState(String transactionalId, TransactionState state) {
        await().atMost(Duration.ofSeconds(60)).until(() -> admin.describeTransactions(List.of(transactionalId))
                .description(transactionalId).get(30, TimeUnit.SECONDS).state() == state);
    }

    private List<String> readAll() {
        List<String> values = new ArrayList<>();
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(allPartitions());
            consumer.seekToBeginning(allPartitions());
            Map<TopicPartition, Long> ends = consumer.endOffsets(allPartitions());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                return ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
            });
        }
        return values;
    }

    private static void send(KafkaProducer<String, String> producer, String prefix) throws Exception {
        for (TopicPartition tp : allPartitions()) {
            producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), "k", prefix + "-" + tp))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static List<TopicPartition> allPartitions() {
        List<TopicPartition> partitions = new ArrayList<>();
        TOPICS.forEach(topic -> {
            for (int p = 0; p < 3; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
        });
        return partitions;
    }

    private String bootstrap() {
        return nodes.values().stream().map(n -> "localhost:" + n.clientPort()).collect(Collectors.joining(","));
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
    }

    private KafkaProducer<String, String> producer(String transactionalId) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "60000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }
}
