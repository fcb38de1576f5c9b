package io.kraft.server.replica;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.LeaderBalanceSettings;
import io.kraft.server.BrokerNode;
import io.kraft.server.ControllerNode;
import io.kraft.server.TestFaultHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.PreferredLeaderNotAvailableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partition operations on a dedicated controller and three dedicated brokers in one JVM, through kafka-clients' Admin:
 * preferred and unclean leader elections, leadership returning to the preferred replicas by itself after each
 * broker is restarted in turn, reassignments (moves, replication factor changes, cancelling) under an idempotent
 * acks=all producer that loses nothing, and DescribeLogDirs.
 */
class PartitionOperationsEndToEndTest {
    private static final String CLUSTER_ID = "UGFydGl0aW9uT3BzVGVzdDE";
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

    private void startCluster(boolean autoRebalance) throws Exception {
        properties = Map.of("controller.quorum.voters", "1@localhost:" + freePort(),
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600",
                ReplicationConfig.REPLICA_FETCH_BACKOFF_MS, "100",
                LeaderBalanceSettings.AUTO_LEADER_REBALANCE_ENABLE, String.valueOf(autoRebalance),
                LeaderBalanceSettings.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS, "1");
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
        int port = brokerPorts.computeIfAbsent(nodeId, id -> freePortUnchecked());
        Map<String, String> brokerProperties = new HashMap<>(properties);
        brokerProperties.put("log.dirs", dir.resolve("broker-" + nodeId).resolve("logs").toString());
        BrokerNode broker = BrokerNode.start(nodeId, CLUSTER_ID, dir.resolve("broker-" + nodeId).resolve("metadata"),
                "PLAINTEXT://localhost:" + port, brokerProperties, topicConfigs, faults);
        brokers.put(nodeId, broker);
        awaitTrue(broker::isBrokerUnfenced, "broker " + nodeId + " to be unfenced");
    }

    private void restartBroker(int nodeId) throws Exception {
        brokers.remove(nodeId).close();
        startBroker(nodeId);
    }

    private String bootstrap() {
        return String.join(",", brokerPorts.values().stream().map(port -> "localhost:" + port).toList());
    }

    private static int freePortUnchecked() {
        try {
            return freePort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<TopicPartitionInfo> partitions(String topic) {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(WAIT_MS, TimeUnit.MILLISECONDS).get(topic);
            return description.partitions();
        } catch (Exception e) {
            return List.of();
        }
    }

    private static boolean ledByPreferred(TopicPartitionInfo partition) {
        return partition.leader() != null && partition.leader().id() == partition.replicas().get(0).id();
    }

    private static boolean fullIsr(TopicPartitionInfo partition) {
        return partition.isr().size() == partition.replicas().size();
    }

    private void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 3))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> partitions(topic).size() == partitions && partitions(topic).stream().allMatch(p -> fullIsr(p)
                && ledByPreferred(p)), topic + " to be created and in sync");
    }

    private static Throwable electionError(Map<TopicPartition, Optional<Throwable>> results, TopicPartition partition) {
        return results.get(partition).orElse(null);
    }

    @Test
    void preferredAndUncleanElectionsThroughTheAdminClient() throws Exception {
        startCluster(false);
        createTopic("orders", 3);
        TopicPartition p0 = new TopicPartition("orders", 0);
        TopicPartition missing = new TopicPartition("orders", 9);
        Map<TopicPartition, Optional<Throwable>> notNeeded = admin.electLeaders(ElectionType.PREFERRED,
                Set.of(p0, missing)).partitions().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertInstanceOf(ElectionNotNeededException.class, electionError(notNeeded, p0));
        assertInstanceOf(UnknownTopicOrPartitionException.class, electionError(notNeeded, missing));

        int preferred = partitions("orders").get(0).replicas().get(0).id();
        brokers.remove(preferred).close();
        awaitTrue(() -> partitions("orders").stream().noneMatch(p -> p.leader() == null
                || p.leader().id() == preferred), "leadership to leave broker " + preferred);
        Map<TopicPartition, Optional<Throwable>> unavailable = admin.electLeaders(ElectionType.PREFERRED, Set.of(p0))
                .partitions().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertInstanceOf(PreferredLeaderNotAvailableException.class, electionError(unavailable, p0));

        startBroker(preferred);
        awaitTrue(() -> partitions("orders").stream().allMatch(PartitionOperationsEndToEndTest::fullIsr),
                "broker " + preferred + " to rejoin every ISR");
        assertTrue(partitions("orders").stream().anyMatch(p -> !ledByPreferred(p)), "without auto rebalance, skewed");
        Map<TopicPartition, Optional<Throwable>> all = admin.electLeaders(ElectionType.PREFERRED, null).partitions()
                .get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertTrue(!all.isEmpty() && all.values().stream().allMatch(Optional::isEmpty), String.valueOf(all));
        awaitTrue(() -> partitions("orders").stream().allMatch(PartitionOperationsEndToEndTest::ledByPreferred),
                "every partition led by its preferred replica");
        assertEquals(Map.of(), admin.electLeaders(ElectionType.PREFERRED, null).partitions()
                .get(WAIT_MS, TimeUnit.MILLISECONDS), "nothing left to elect");

        Map<TopicPartition, Optional<Throwable>> led = admin.electLeaders(ElectionType.UNCLEAN, Set.of(p0))
                .partitions().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertInstanceOf(ElectionNotNeededException.class, electionError(led, p0), "a partition with a leader");
    }

    @Test
    void leadershipReturnsToThePreferredReplicasAfterARollingRestart() throws Exception {
        startCluster(true);
        createTopic("rolling", 6);
        for (int id : BROKER_IDS) {
            restartBroker(id);
            awaitTrue(() -> partitions("rolling").stream().allMatch(PartitionOperationsEndToEndTest::fullIsr),
                    "broker " + id + " to rejoin every ISR");
        }
        // leader.imbalance.check.interval.seconds is 1 here: the controller moves leadership back within seconds.
        awaitTrue(() -> partitions("rolling").stream().allMatch(PartitionOperationsEndToEndTest::ledByPreferred),
                "leadership to return to the preferred replicas");
        List<Integer> leaders = partitions("rolling").stream().map(p -> p.leader().id()).toList();
        for (int id : BROKER_IDS) {
            assertEquals(2, leaders.stream().filter(leader -> leader == id).count(), "leaders " + leaders);
        }
    }

    private void reassign(String topic, Map<Integer, List<Integer>> targets) throws Exception {
        Map<TopicPartition, Optional<NewPartitionReassignment>> request = new HashMap<>();
        targets.forEach((partition, replicas) -> request.put(new TopicPartition(topic, partition),
                Optional.of(new NewPartitionReassignment(replicas))));
        admin.alterPartitionReassignments(request).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> {
            List<TopicPartitionInfo> now = partitions(topic);
            return ongoingReassignments().isEmpty() && now.size() == targets.size() && targets.entrySet().stream()
                    .allMatch(e -> replicaIds(now.get(e.getKey())).equals(e.getValue()) && fullIsr(now.get(e.getKey())));
        }, "the reassignment of " + topic + " to " + targets + " to complete");
    }

    private Map<TopicPartition, PartitionReassignment> ongoingReassignments() {
        try {
            return admin.listPartitionReassignments().reassignments().get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("ListPartitionReassignments failed", e);
        }
    }

    private static List<Integer> replicaIds(TopicPartitionInfo partition) {
        return partition.replicas().stream().map(Node::id).toList();
    }

    @Test
    void reassignmentsMoveEveryReplicaAndChangeTheReplicationFactorWhileAProducerWrites() throws Exception {
        startCluster(false);
        admin.createTopics(List.of(new NewTopic("moving", Map.of(0, List.of(2), 1, List.of(3), 2, List.of(4)))))
                .all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 50);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
        KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer());
        clients.add(producer);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            for (int i = 0; producing.get(); i++) {
                String value = "v" + i;
                producer.send(new ProducerRecord<>("moving", i % 3, null, value), (metadata, error) -> {
                    if (error == null) {
                        acknowledged.add(value);
                    } else {
                        failures.add(error);
                    }
                });
                if (i % 50 == 49) {
                    producer.flush();
                }
            }
            producer.flush();
        }, "reassignment-test-producer");
        writer.start();

        // Every replica to another broker, then replication factor 1 -> 3 -> 2 (the last removes leader 3 of p0).
        reassign("moving", Map.of(0, List.of(3), 1, List.of(4), 2, List.of(2)));
        int before = acknowledged.size();
        awaitTrue(() -> acknowledged.size() > before + 100, "writes to go on after the move");
        reassign("moving", Map.of(0, List.of(3, 4, 2), 1, List.of(4, 2, 3), 2, List.of(2, 3, 4)));
        reassign("moving", Map.of(0, List.of(4, 2), 1, List.of(2, 3), 2, List.of(3, 4)));
        int after = acknowledged.size();
        awaitTrue(() -> acknowledged.size() > after + 100, "writes to go on after the shrink");
        producing.set(false);
        writer.join(WAIT_MS);
        assertEquals(List.of(), failures);

        List<String> read = InProcessCluster.readValues(bootstrap(), List.of(new TopicPartition("moving", 0),
                new TopicPartition("moving", 1), new TopicPartition("moving", 2)), acknowledged.size(), WAIT_MS);
        assertEquals(read.size(), Set.copyOf(read).size(), "no record twice");
        assertTrue(Set.copyOf(read).containsAll(acknowledged), "every acknowledged record is there: "
                + acknowledged.size() + " acknowledged, " + read.size() + " read");
    }

    @Test
    void aReassignmentThatCannotFinishIsListedAndCancelled() throws Exception {
        startCluster(false);
        admin.createTopics(List.of(new NewTopic("stuck", Map.of(0, List.of(2, 3))))).all()
                .get(WAIT_MS, TimeUnit.MILLISECONDS);
        brokers.remove(4).close();
        awaitTrue(() -> !brokers.containsKey(4), "broker 4 stopped");
        TopicPartition p0 = new TopicPartition("stuck", 0);
        admin.alterPartitionReassignments(Map.of(p0, Optional.of(new NewPartitionReassignment(List.of(2, 4)))))
                .all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> ongoingReassignments().containsKey(p0), "the reassignment to be listed");
        PartitionReassignment ongoing = ongoingReassignments().get(p0);
        assertEquals(List.of(2, 4, 3), ongoing.replicas());
        assertEquals(List.of(4), ongoing.addingReplicas());
        assertEquals(List.of(3), ongoing.removingReplicas());

        admin.alterPartitionReassignments(Map.of(p0, Optional.empty())).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> ongoingReassignments().isEmpty() && replicaIds(partitions("stuck").get(0))
                .equals(List.of(2, 3)), "the cancelled reassignment to be reverted");
        ExecutionException none = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> admin.alterPartitionReassignments(Map.of(p0, Optional.empty())).all()
                        .get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(NoReassignmentInProgressException.class, none.getCause());
        ExecutionException badBroker = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> admin.alterPartitionReassignments(Map.of(p0, Optional.of(new NewPartitionReassignment(
                        List.of(2, 99))))).all().get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(InvalidReplicaAssignmentException.class, badBroker.getCause());
    }

    @Test
    void describeLogDirsShowsEachBrokersReplicasWithTheirSizes() throws Exception {
        startCluster(false);
        createTopic("sized", 1);
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>("sized", "k" + i, "v" + i));
            }
            producer.flush();
        }
        TopicPartition sized = new TopicPartition("sized", 0);
        awaitTrue(() -> {
            Map<Integer, Map<String, LogDirDescription>> dirs = describeLogDirs();
            return dirs.keySet().equals(Set.copyOf(BROKER_IDS)) && dirs.values().stream().allMatch(byPath ->
                    byPath.size() == 1 && byPath.values().iterator().next().error() == null
                            && byPath.values().iterator().next().replicaInfos().containsKey(sized)
                            && byPath.values().iterator().next().replicaInfos().get(sized).size() > 0
                            && byPath.values().iterator().next().replicaInfos().get(sized).offsetLag() == 0);
        }, "every broker to describe its replica of sized-0");
        Map<Integer, Map<String, LogDirDescription>> dirs = describeLogDirs();
        List<Long> sizes = dirs.values().stream().map(byPath -> byPath.values().iterator().next().replicaInfos()
                .get(sized).size()).distinct().toList();
        assertEquals(1, sizes.size(), "the replicas hold the same bytes: " + sizes);
        LogDirDescription one = dirs.get(2).values().iterator().next();
        assertTrue(one.totalBytes().isPresent() && one.usableBytes().isPresent(), String.valueOf(one));
        assertTrue(dirs.get(2).keySet().iterator().next().endsWith("logs"), String.valueOf(dirs.get(2).keySet()));
    }

    private Map<Integer, Map<String, LogDirDescription>> describeLogDirs() {
        try {
            return admin.describeLogDirs(BROKER_IDS).allDescriptions().get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("DescribeLogDirs failed", e);
        }
    }
}
