package io.kraft.server.replica;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.TxnWire;
import io.kraft.broker.lifecycle.BrokerLifecycleConfig;
import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.server.BrokerNode;
import io.kraft.server.ControllerNode;
import io.kraft.server.TestFaultHandler;
import io.kraft.storage.log.AbortedTxn;
import io.kraft.storage.log.Log;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replication across three dedicated brokers in one JVM, judged by kafka-clients: followers fetch and hold the
 * leader's bytes, a leader change loses no acknowledged record, a restarted broker catches up and rejoins the
 * ISR, a follower that stops fetching leaves it, and acks=all is refused while too few replicas are in sync;
 * transaction markers reach the followers, and a new leader keeps the last stable offset and aborted
 * transactions (read by a read_committed consumer).
 */
class ReplicationEndToEndTest {
    private static final String CLUSTER_ID = "UmVwbGljYXRpb25UZXN0MQ";
    private static final long WAIT_MS = 30_000;
    private static final List<Integer> BROKER_IDS = List.of(2, 3, 4);

    @TempDir
    Path dir;

    private final TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
            LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
    private final Map<Integer, BrokerNode> brokers = new HashMap<>();
    private final TestFaultHandler faults = new TestFaultHandler();
    private final Map<Integer, Integer> brokerPorts = new HashMap<>();
    private final List<AutoCloseable> clients = new ArrayList<>();
    private ControllerNode controller;
    private Map<String, String> properties;
    private Admin admin;

    @AfterEach
    void stop() throws Exception {
        InProcessCluster.closeAll(clients, brokers.values(), controller, faults);
    }

    private void startCluster(long lagTimeMaxMs) throws Exception {
        properties = Map.of("controller.quorum.voters", "1@localhost:" + freePort(),
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600",
                ReplicationConfig.REPLICA_LAG_TIME_MAX_MS, String.valueOf(lagTimeMaxMs),
                ReplicationConfig.REPLICA_FETCH_BACKOFF_MS, "100");
        controller = ControllerNode.start(1, CLUSTER_ID, dir.resolve("controller-1"), properties, topicConfigs, faults);
        for (int id : BROKER_IDS) {
            startBroker(id);
        }
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000"));
        clients.add(admin);
    }

    private void startBroker(int nodeId) throws Exception {
        startBroker(nodeId, Map.of());
    }

    private void startBroker(int nodeId, Map<String, String> overrides) throws Exception {
        int port = brokerPorts.computeIfAbsent(nodeId, id -> freePortUnchecked());
        Map<String, String> brokerProperties = new HashMap<>(properties);
        brokerProperties.put("log.dirs", logDir(nodeId).toString());
        brokerProperties.putAll(overrides);
        BrokerNode broker = BrokerNode.start(nodeId, CLUSTER_ID, dir.resolve("broker-" + nodeId).resolve("metadata"),
                "PLAINTEXT://localhost:" + port, brokerProperties, topicConfigs, faults);
        brokers.put(nodeId, broker);
        awaitTrue(broker::isBrokerUnfenced, "broker " + nodeId + " to be unfenced");
    }

    private Path logDir(int nodeId) {
        return dir.resolve("broker-" + nodeId).resolve("logs");
    }

    private String bootstrap() {
        return String.join(",", brokerPorts.values().stream().map(port -> "localhost:" + port).toList());
    }

    private void createTopic(String topic, int minInsyncReplicas) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 3).configs(Map.of("min.insync.replicas",
                String.valueOf(minInsyncReplicas))))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> isr(topic).size() == 3, "the ISR of " + topic + " to be complete");
    }

    /** The partition as a broker describes it, or null while the broker asked does not know the topic yet. */
    private TopicPartitionInfo describe(String topic) {
        try {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(WAIT_MS, TimeUnit.MILLISECONDS)
                    .get(topic).partitions().get(0);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private Set<Integer> isr(String topic) {
        TopicPartitionInfo partition = describe(topic);
        return partition == null ? Set.of() : Set.copyOf(partition.isr().stream().map(Node::id).toList());
    }

    private int leader(String topic) {
        TopicPartitionInfo partition = describe(topic);
        return partition == null || partition.leader() == null ? -1 : partition.leader().id();
    }

    private KafkaProducer<String, String> producer(String acks, boolean idempotent) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ProducerConfig.ACKS_CONFIG, acks);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotent);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 25_000);
        config.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 50);
        if (!idempotent) {
            config.put(ProducerConfig.RETRIES_CONFIG, 0);
        }
        KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer());
        clients.add(producer);
        return producer;
    }

    /** Sends values [from, to) and waits for every acknowledgement. */
    private static void produce(KafkaProducer<String, String> producer, String topic, int from, int to)
            throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = from; i < to; i++) {
            acks.add(producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)));
        }
        for (Future<RecordMetadata> ack : acks) {
            ack.get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }

    private List<String> readAll(String topic, int expected) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            // Nothing beyond what was acknowledged (no duplicates from retries).
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(300))) {
                values.add(record.value());
            }
        }
        return values;
    }

    private static List<String> values(int from, int to) {
        List<String> values = new ArrayList<>();
        for (int i = from; i < to; i++) {
            values.add("v" + i);
        }
        return values;
    }

    @Test
    void acknowledgedRecordsSurviveALeaderChangeAndTheOldLeaderCatchesUpAndRejoinsTheIsr() throws Exception {
        startCluster(30_000);
        createTopic("orders", 2);
        KafkaProducer<String, String> producer = producer("all", true);
        produce(producer, "orders", 0, 2_000);

        int firstLeader = leader("orders");
        brokers.remove(firstLeader).close();
        awaitTrue(() -> {
            int now = leader("orders");
            return now != firstLeader && now != -1;
        }, "a new leader from the ISR");
        assertEquals(Set.copyOf(BROKER_IDS.stream().filter(id -> id != firstLeader).toList()), isr("orders"),
                "the stopped broker left the ISR");

        // The new leader takes acks=all writes with its one remaining follower (min.insync.replicas=2).
        produce(producer, "orders", 2_000, 3_000);
        assertEquals(values(0, 3_000), readAll("orders", 3_000));

        // Restarted, the old leader truncates what it may have had beyond the new leader's epoch, catches up and
        // rejoins the ISR; the described ISR says so.
        startBroker(firstLeader);
        awaitTrue(() -> isr("orders").size() == 3, "the restarted broker to rejoin the ISR");
        produce(producer, "orders", 3_000, 3_500);
        assertEquals(values(0, 3_500), readAll("orders", 3_500));

        // Every replica holds the very same bytes.
        awaitTrue(() -> logEndOffsets("orders").size() == 1, "every replica to reach the same log end");
        closeBrokers();
        byte[] reference = logBytes(BROKER_IDS.get(0), "orders-0");
        assertTrue(reference.length > 0);
        for (int id : BROKER_IDS.subList(1, BROKER_IDS.size())) {
            assertArrayEquals(reference, logBytes(id, "orders-0"), "broker " + id + "'s log differs");
        }
    }

    @Test
    void aReturningLeaderWithALongerDivergentTailTruncatesBeforeItRejoinsAndNoAcknowledgedRecordIsLost()
            throws Exception {
        startCluster(30_000);
        createTopic("ledger", 2);
        KafkaProducer<String, String> producer = producer("all", true);
        produce(producer, "ledger", 0, 100);

        // The followers stop fetching (they stay in the ISR for the lag time); the leader alone takes acks=1 writes:
        // a tail no one else has and nobody acknowledged with acks=all.
        int oldLeader = leader("ledger");
        List<Integer> followers = BROKER_IDS.stream().filter(id -> id != oldLeader).toList();
        for (int follower : followers) {
            brokers.get(follower).replicaManager().fetchers().orElseThrow().close();
        }
        KafkaProducer<String, String> leaderOnly = producer("1", false);
        Future<RecordMetadata> lastOfTail = null;
        for (int i = 0; i < 300; i++) {
            lastOfTail = leaderOnly.send(new ProducerRecord<>("ledger", "tail" + i, "tail" + i));
        }
        assertEquals(399, lastOfTail.get(WAIT_MS, TimeUnit.MILLISECONDS).offset(), "the tail is on the old leader");
        brokers.remove(oldLeader).close();
        awaitTrue(() -> followers.contains(leader("ledger")), "a new leader among the followers");
        // Restarted, the other follower has fetchers again; the new leader's epoch gets fewer records than the tail.
        int newLeader = leader("ledger");
        int otherFollower = followers.stream().filter(id -> id != newLeader).findFirst().orElseThrow();
        brokers.remove(otherFollower).close();
        startBroker(otherFollower);
        awaitTrue(() -> isr("ledger").size() == 2, "the restarted follower to rejoin the ISR");
        produce(producer, "ledger", 100, 200);

        // The old leader returns with 400 records against the leader's 200: it must truncate its tail before it
        // counts as in sync, and then hold exactly the leader's records.
        startBroker(oldLeader);
        awaitTrue(() -> isr("ledger").size() == 3, "the old leader to rejoin the ISR");
        awaitTrue(() -> logEndOffsets("ledger").equals(Set.of(200L)), "every replica to end at 200");

        // Only the old leader is left: it has every acknowledged record and none of its old tail.
        for (int id : followers) {
            brokers.remove(id).close();
        }
        awaitTrue(() -> leader("ledger") == oldLeader, "the old leader to lead again");
        assertEquals(values(0, 200), readAll("ledger", 200));
    }

    @Test
    void theTopicsUncleanLeaderElectionSettingElectsALiveReplicaOutsideTheIsr() throws Exception {
        startCluster(30_000);
        createTopic("relaxed", 1);
        KafkaProducer<String, String> producer = producer("all", true);
        produce(producer, "relaxed", 0, 10);

        // The followers stop, the leader is the ISR alone; then it stops too and the followers come back.
        int lastInSync = leader("relaxed");
        List<Integer> others = BROKER_IDS.stream().filter(id -> id != lastInSync).toList();
        for (int id : others) {
            brokers.remove(id).close();
        }
        awaitTrue(() -> isr("relaxed").equals(Set.of(lastInSync)), "the ISR to shrink to the leader");
        brokers.remove(lastInSync).close();
        for (int id : others) {
            startBroker(id);
        }
        awaitTrue(() -> describe("relaxed") != null && describe("relaxed").leader() == null,
                "the partition to have no leader: the broker default forbids unclean elections");

        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "relaxed");
        admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(new ConfigEntry(
                "unclean.leader.election.enable", "true"), AlterConfigOp.OpType.SET))))
                .all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> others.contains(leader("relaxed")), "a live replica outside the ISR to lead");
        assertEquals("true", admin.describeConfigs(List.of(topic)).all().get(WAIT_MS, TimeUnit.MILLISECONDS)
                .get(topic).get("unclean.leader.election.enable").value());
        produce(producer, "relaxed", 10, 20);
    }

    @Test
    void transactionMarkersReachTheFollowersAndANewLeaderKeepsTheLastStableOffsetAndAbortedTransactions()
            throws Exception {
        startCluster(30_000);
        createTopic("ledger", 2);
        int firstLeader = leader("ledger");
        TxnWire.Producer committer;
        TxnWire.Producer aborter;
        TxnWire.Producer open;
        long openAt;
        try (TxnWire wire = new TxnWire(brokerPorts.get(firstLeader))) {
            committer = wire.newProducer();
            aborter = wire.newProducer();
            open = wire.newProducer();
            wire.produce(committer, "ledger", 0, "c0", "c1");
            wire.produce(aborter, "ledger", 0, "a0");
            wire.end(committer, true, "ledger", 0);
            wire.end(aborter, false, "ledger", 0);
            openAt = wire.produce(open, "ledger", 0, "o0");
            wire.produce(committer, "ledger", 0, "c2");
            wire.end(committer, true, "ledger", 0);
        }
        // Every replica replayed the markers: the same aborted transactions and the same open one.
        awaitTrue(() -> logEndOffsets("ledger").size() == 1, "every replica to reach the same log end");
        List<AbortedTxn> aborted = null;
        for (int id : BROKER_IDS) {
            Log log = brokers.get(id).replicaManager().partition(new io.kraft.storage.log.TopicPartition("ledger", 0))
                    .orElseThrow().log();
            List<AbortedTxn> here = log.collectAbortedTransactions(0, log.logEndOffset());
            assertEquals(1, here.size(), "broker " + id);
            assertEquals(aborter.id, here.get(0).producerId());
            if (aborted != null) {
                assertEquals(aborted, here, "broker " + id + "'s aborted transactions differ");
            }
            aborted = here;
            assertEquals(openAt, log.producerState(open.id).orElseThrow().currentTxnFirstOffset(), "broker " + id);
        }

        brokers.remove(firstLeader).close();
        awaitTrue(() -> {
            int now = leader("ledger");
            return now != firstLeader && now != -1;
        }, "a new leader from the ISR");
        TopicPartition tp = new TopicPartition("ledger", 0);
        awaitTrue(() -> lastStableOffset(tp) == openAt, "the new leader's last stable offset at the open transaction");
        assertEquals(List.of("c0", "c1"), readCommitted("ledger", 2));

        try (TxnWire wire = new TxnWire(brokerPorts.get(leader("ledger")))) {
            wire.end(open, true, "ledger", 0);
        }
        assertEquals(List.of("c0", "c1", "o0", "c2"), readCommitted("ledger", 4));
    }

    private long lastStableOffset(TopicPartition tp) {
        try {
            return admin.listOffsets(Map.of(tp, OffsetSpec.latest()),
                    new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).partitionResult(tp)
                    .get(WAIT_MS, TimeUnit.MILLISECONDS).offset();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** What a read_committed consumer reads of partition 0 from the start: {@code expected} values, then no more. */
    private List<String> readCommitted(String topic, int expected) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(300))) {
                values.add(record.value());
            }
        }
        return values;
    }

    @Test
    void aFollowerThatStopsFetchingLeavesTheIsrAndAcksAllIsRefusedUntilItRejoins() throws Exception {
        startCluster(1_500);
        createTopic("payments", 3);
        produce(producer("all", true), "payments", 0, 10);

        int leader = leader("payments");
        int follower = BROKER_IDS.stream().filter(id -> id != leader).findFirst().orElseThrow();
        // The follower's broker stays registered and unfenced; only its fetching stops.
        brokers.get(follower).replicaManager().fetchers().orElseThrow().close();
        produce(producer("1", false), "payments", 10, 20);
        awaitTrue(() -> !isr("payments").contains(follower), "the leader to drop the lagging follower from the ISR");
        assertEquals(leader, leader("payments"));

        KafkaProducer<String, String> strict = producer("all", false);
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> strict.send(new ProducerRecord<>("payments", "k", "refused")).get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(NotEnoughReplicasException.class, refused.getCause());

        // A new incarnation fetches again, catches up, and the leader adds it back.
        brokers.remove(follower).close();
        startBroker(follower);
        awaitTrue(() -> isr("payments").size() == 3, "the follower to rejoin the ISR");
        strict.send(new ProducerRecord<>("payments", "k", "v20")).get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals(values(0, 21), readAll("payments", 21));
        assertNotEquals(-1, leader("payments"));
    }

    @Test
    void aRestartedBrokerDeletesTheLogOfATopicDeletedWhileItWasDownAndRegistersItsRack() throws Exception {
        startCluster(30_000);
        createTopic("doomed", 1);
        produce(producer("all", true), "doomed", 0, 100);
        int down = BROKER_IDS.get(0);
        brokers.remove(down).close();

        admin.deleteTopics(List.of("doomed")).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        for (int id : brokers.keySet()) {
            awaitTrue(() -> !Files.exists(logDir(id).resolve("doomed-0")), "broker " + id + " to delete its log");
        }
        assertTrue(Files.exists(logDir(down).resolve("doomed-0")), "the stopped broker cannot know yet");

        startBroker(down, Map.of(BrokerLifecycleConfig.BROKER_RACK, "rack-b"));
        awaitTrue(() -> !Files.exists(logDir(down).resolve("doomed-0")), "the restarted broker to delete the stray log");
        // The broker Admin asks lists the restarted one once its own metadata has the unfencing.
        AtomicReference<Node> restarted = new AtomicReference<>();
        awaitTrue(() -> {
            restarted.set(liveNode(down));
            return restarted.get() != null;
        }, "broker " + down + " to be listed again");
        assertEquals("rack-b", restarted.get().rack(), "broker.rack reaches the registration and Metadata");
    }

    /** The broker as DescribeCluster lists it, or null while it is not listed (or the call fails). */
    private Node liveNode(int brokerId) {
        try {
            return admin.describeCluster().nodes().get(WAIT_MS, TimeUnit.MILLISECONDS).stream()
                    .filter(node -> node.id() == brokerId).findFirst().orElse(null);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private Set<Long> logEndOffsets(String topic) {
        Set<Long> ends = new java.util.HashSet<>();
        for (BrokerNode broker : brokers.values()) {
            broker.replicaManager().partition(new io.kraft.storage.log.TopicPartition(topic, 0))
                    .ifPresent(p -> ends.add(p.logEndOffset()));
        }
        return ends;
    }

    private void closeBrokers() {
        clients.forEach(client -> {
            try {
                client.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        clients.clear();
        brokers.values().forEach(BrokerNode::close);
        brokers.clear();
    }

    /** The partition's segment files of one broker, concatenated in offset order. */
    private byte[] logBytes(int brokerId, String partitionDir) throws IOException {
        TreeMap<String, Path> segments = new TreeMap<>();
        try (Stream<Path> files = Files.list(logDir(brokerId).resolve(partitionDir))) {
            files.filter(f -> f.getFileName().toString().endsWith(".log"))
                    .forEach(f -> segments.put(f.getFileName().toString(), f));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Path segment : segments.values()) {
            out.write(Files.readAllBytes(segment));
        }
        return out.toByteArray();
    }

    private static int freePortUnchecked() {
        try {
            return freePort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
