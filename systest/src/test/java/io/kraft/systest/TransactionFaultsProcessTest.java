package io.kraft.systest;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions under faults, with real processes: three combined nodes, a topic with replication factor 3 and
 * min.insync.replicas 2, and a transactional producer committing continuously (every fifth transaction aborted) while
 * the active controller, the transactional id's coordinator and a partition leader are killed with kill -9, one
 * after the other, each in the middle of a transaction (its records sent and acknowledged, its end not yet asked),
 * and restarted. Afterwards no transaction hangs (each partition's last stable offset reaches its high watermark
 * within the transaction timeout) and a read_committed consumer reads every committed transaction's records exactly
 * once, in order, and no aborted one's. Last, a producer process is killed mid-transaction: the coordinator aborts
 * its transaction after its timeout and the last stable offsets move on. The time from each kill to the next committed transaction is printed.
 */
class TransactionFaultsProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long ADMIN_WAIT_MS = 30_000;
    private static final int TRANSACTION_TIMEOUT_MS = 10_000;
    private static final String TOPIC = "txn-events";
    private static final int PARTITIONS = 3;
    private static final String TRANSACTIONAL_ID = "txn-faults-writer";
    /** The killed producer's transaction timeout: shorter than the loop's, to keep the test short. */
    private static final int STALLED_TIMEOUT_MS = 3_000;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private CombinedCluster cluster;

    @Test
    void committedTransactionsAreReadExactlyOnceThroughKillsOfTheControllerTheCoordinatorAndALeader() throws Exception {
        cluster = new CombinedCluster(processes, dataDir, 3, WAIT, node -> node
                .with("broker.session.timeout.ms", "3000")
                .with("broker.connection.loss.grace.ms", "1000")
                .with("replica.fetch.backoff.ms", "100"));
        long startedAtNanos = System.nanoTime();
        cluster.startAll();
        report("3 combined nodes started, brokers unfenced, after " + elapsedMs(startedAtNanos) + " ms");
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            awaitFullIsr(admin);

            TransactionLoop loop = new TransactionLoop(cluster.bootstrap(), TRANSACTIONAL_ID, TOPIC, PARTITIONS, 6, 5,
                    TRANSACTION_TIMEOUT_MS);
            loop.start();
            try {
                loop.awaitCommits(20, WAIT.toMillis());
                Set<Integer> killed = new HashSet<>();
                killMidTransaction(admin, loop, "active controller", cluster.activeController(), killed);
                killMidTransaction(admin, loop, "transaction coordinator", coordinator(admin), killed);
                killMidTransaction(admin, loop, "partition leader", leaderToKill(admin, killed), killed);
            } finally {
                loop.close();
            }
            report("producer loop: " + loop.summary());

            long stoppedAtNanos = System.nanoTime();
            awaitNoHangingTransaction(admin);
            long stableMs = elapsedMs(stoppedAtNanos);
            report("every partition's last stable offset equals its high watermark " + stableMs
                    + " ms after the last transaction (transaction timeout " + TRANSACTION_TIMEOUT_MS + " ms)");
            assertTrue(stableMs < TRANSACTION_TIMEOUT_MS, "a transaction hung for " + stableMs + " ms");
            killAProducerMidTransaction(admin);
            checkReadCommitted(loop);
        }
    }

    /**
     * Stops the producer between its acknowledged sends and its commit, kills the node, lets the producer go on,
     * and measures the time to the next committed transaction; then restarts the node and waits for every replica
     * to be back in sync, so the next kill leaves min.insync.replicas.
     */
    private void killMidTransaction(Admin admin, TransactionLoop loop, String role, int nodeId, Set<Integer> killed)
            throws Exception {
        String roles = roles(admin, nodeId);
        loop.pauseMidTransaction(WAIT.toMillis());
        long killedAtNanos = System.nanoTime();
        cluster.kill(nodeId);
        loop.resume();
        killed.add(nodeId);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> loop.firstCommitBegunAfter(killedAtNanos) > 0);
        long toCommitMs = TimeUnit.NANOSECONDS.toMillis(loop.firstCommitAfter(killedAtNanos) - killedAtNanos);
        long toNewCommitMs = TimeUnit.NANOSECONDS.toMillis(loop.firstCommitBegunAfter(killedAtNanos) - killedAtNanos);
        report("kill -9 of the " + role + ", node " + nodeId + " (" + roles + "), mid-transaction -> next commit after "
                + toCommitMs + " ms, first commit of a transaction begun after the kill after " + toNewCommitMs
                + " ms; " + loop.summary());
        long restartedAtNanos = System.nanoTime();
        cluster.restart(nodeId);
        awaitFullIsr(admin);
        report("node " + nodeId + " restarted and back in every ISR after " + elapsedMs(restartedAtNanos) + " ms");
        loop.awaitCommits(3, WAIT.toMillis());
    }

    /**
     * A producer process opens a transaction in every partition and is killed with kill -9: the transaction holds
     * each partition's last stable offset until the coordinator aborts it after its timeout, then the LSO moves on.
     */
    private void killAProducerMidTransaction(Admin admin) {
        JvmProcess stalled = processes.start(JvmSpec.testMain("stalled-producer", StalledTransactionMain.class,
                cluster.bootstrap(), TOPIC, Integer.toString(PARTITIONS), "txn-faults-stalled",
                Integer.toString(STALLED_TIMEOUT_MS)));
        stalled.waitForLogLine("transaction open", WAIT);
        long killedAtNanos = System.nanoTime();
        stalled.kill(WAIT);
        Map<TopicPartition, Long> stable = uncheck(() -> offsets(admin, latest(), IsolationLevel.READ_COMMITTED));
        Map<TopicPartition, Long> highWatermarks = uncheck(() -> offsets(admin, latest(), IsolationLevel.READ_UNCOMMITTED));
        stable.forEach((partition, offset) -> assertTrue(offset < highWatermarks.get(partition),
                "the killed producer's open transaction does not hold back the LSO of " + partition + ": " + stable
                        + " vs high watermarks " + highWatermarks));
        awaitNoHangingTransaction(admin);
        long abortedMs = elapsedMs(killedAtNanos);
        report("kill -9 of a producer process mid-transaction (transaction.timeout.ms " + STALLED_TIMEOUT_MS
                + ") -> aborted by the coordinator, every LSO back at the high watermark after " + abortedMs + " ms");
        assertTrue(abortedMs < STALLED_TIMEOUT_MS + 5_000, "the abandoned transaction was aborted only after "
                + abortedMs + " ms");
    }

    /** What the node is, just before its kill: the active controller, the coordinator, the leader of which partitions. */
    private String roles(Admin admin, int nodeId) throws Exception {
        List<String> roles = new ArrayList<>();
        if (cluster.activeController() == nodeId) {
            roles.add("active controller");
        }
        if (coordinator(admin) == nodeId) {
            roles.add("coordinator of " + TRANSACTIONAL_ID);
        }
        List<Integer> led = describe(admin).partitions().stream()
                .filter(p -> p.leader() != null && p.leader().id() == nodeId).map(TopicPartitionInfo::partition).toList();
        if (!led.isEmpty()) {
            roles.add("leader of partitions " + led);
        }
        return String.join(", ", roles);
    }

    private static int coordinator(Admin admin) throws Exception {
        return admin.describeTransactions(List.of(TRANSACTIONAL_ID)).description(TRANSACTIONAL_ID)
                .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).coordinatorId();
    }

    /**
     * A partition leader, preferably one that is neither the active controller nor the coordinator (so that this
     * kill is of a leader only), then one not killed before.
     */
    private int leaderToKill(Admin admin, Set<Integer> killed) throws Exception {
        int active = cluster.activeController();
        int coordinator = coordinator(admin);
        List<Integer> leaders = describe(admin).partitions().stream().map(p -> p.leader().id()).distinct().toList();
        Comparator<Integer> preference = Comparator.<Integer, Boolean>comparing(id -> id == active)
                .thenComparing(id -> id == coordinator).thenComparing(killed::contains);
        return leaders.stream().min(preference).orElseThrow();
    }

    private static TopicDescription describe(Admin admin) throws Exception {
        return admin.describeTopics(List.of(TOPIC)).allTopicNames().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).get(TOPIC);
    }

    private static void awaitFullIsr(Admin admin) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() -> describe(admin)
                .partitions().stream().allMatch(p -> p.leader() != null && p.isr().size() == 3));
    }

    /** Waits until the last stable offset (ListOffsets read_committed) equals the high watermark everywhere. */
    private static void awaitNoHangingTransaction(Admin admin) {
        Map<TopicPartition, OffsetSpec> latest = latest();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() -> {
            Map<TopicPartition, Long> stable = offsets(admin, latest, IsolationLevel.READ_COMMITTED);
            Map<TopicPartition, Long> highWatermarks = offsets(admin, latest, IsolationLevel.READ_UNCOMMITTED);
            return stable.equals(highWatermarks);
        });
    }

    private static Map<TopicPartition, OffsetSpec> latest() {
        return IntStream.range(0, PARTITIONS).boxed()
                .collect(Collectors.toMap(p -> new TopicPartition(TOPIC, p), p -> OffsetSpec.latest()));
    }

    private static <T> T uncheck(Callable<T> call) {
        try {
            return call.call();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, Map<TopicPartition, OffsetSpec> specs,
                                                     IsolationLevel isolation) throws Exception {
        return admin.listOffsets(specs, new ListOffsetsOptions(isolation)).all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS)
                .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    /**
     * Reads the topic read_committed and checks it against what the producer knows: a committed transaction's
     * records are all there once, an aborted one's are not, one whose commit failed for good is all there once or
     * not at all, and each partition holds the transactions in the order they ran.
     */
    private void checkReadCommitted(TransactionLoop loop) {
        Map<Integer, List<String>> byPartition = readCommitted();
        Map<String, Integer> seen = new HashMap<>();
        byPartition.forEach((partition, values) -> {
            values.forEach(value -> seen.merge(value, 1, Integer::sum));
            List<Integer> order = values.stream().filter(value -> !value.startsWith("stalled-"))
                    .map(TransactionLoop::transactionOf).toList();
            assertEquals(order.stream().sorted().toList(), order, "partition " + partition + " is out of order");
        });
        List<String> duplicates = seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
        assertEquals(List.of(), duplicates, "records read more than once");
        assertEquals(List.of(), seen.keySet().stream().filter(value -> value.startsWith("stalled-")).toList(),
                "the killed producer's aborted records were read");
        Map<Integer, TransactionLoop.Outcome> outcomes = loop.outcomes();
        List<String> unknownOrigin = seen.keySet().stream().filter(value -> !value.startsWith("stalled-"))
                .filter(value -> !outcomes.containsKey(TransactionLoop.transactionOf(value))).toList();
        assertEquals(List.of(), unknownOrigin, "records of transactions the producer never ran");
        int unknownCommitted = 0;
        for (Map.Entry<Integer, TransactionLoop.Outcome> entry : outcomes.entrySet()) {
            int transaction = entry.getKey();
            long present = IntStream.range(0, loop.recordsPerTransaction())
                    .filter(i -> seen.containsKey(TransactionLoop.value(transaction, i))).count();
            switch (entry.getValue()) {
                case COMMITTED -> assertEquals(loop.recordsPerTransaction(), present,
                        "committed transaction " + transaction + " is not all there");
                case ABORTED -> assertEquals(0, present, "aborted transaction " + transaction + " was read");
                case UNKNOWN -> {
                    assertTrue(present == 0 || present == loop.recordsPerTransaction(),
                            "transaction " + transaction + " is only partly there: " + present + " records");
                    unknownCommitted += present > 0 ? 1 : 0;
                }
            }
        }
        report(seen.size() + " records read read_committed: every one of " + loop.count(TransactionLoop.Outcome.COMMITTED)
                + " committed transactions exactly once, none of " + loop.count(TransactionLoop.Outcome.ABORTED)
                + " aborted; " + loop.count(TransactionLoop.Outcome.UNKNOWN) + " with a failed commit, "
                + unknownCommitted + " of them committed whole, the others absent whole");
    }

    private Map<Integer, List<String>> readCommitted() {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<Integer, List<String>> byPartition = new TreeMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = IntStream.range(0, PARTITIONS).mapToObj(p -> new TopicPartition(TOPIC, p))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofMillis(ADMIN_WAIT_MS));
            long deadlineNanos = System.nanoTime() + WAIT.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                assertTrue(System.nanoTime() - deadlineNanos < 0, "the consumer did not reach the end offsets " + end);
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(record.value());
                }
            }
        }
        return byPartition;
    }

    private static long elapsedMs(long sinceNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
    }

    private static void report(String line) {
        System.out.println("[txn-faults] " + line);
    }
}
