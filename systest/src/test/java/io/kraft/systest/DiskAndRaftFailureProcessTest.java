package io.kraft.systest;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import io.kraft.storage.io.FaultInjection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three combined nodes as real processes, node 1 with two log directories, an idempotent acks=all producer sending to
 * a topic of replication factor 3 throughout. First one of node 1's directories fails (an I/O error injected below
 * its files with the test-only {@link FaultInjection}, since no real disk can be made to fail here): the partitions
 * there leave node 1's ISRs and leaderships while the other directory keeps replicating on node 1, and node 1 stays up.
 * Then an fsync of node 2's metadata log fails, which kills its Raft thread: the process logs one line and exits with
 * status 1 at once instead of lingering as a zombie (the time is printed), and restarted it rejoins. Then node 1's
 * disk is repaired and node 1 restarted: the directory comes back under its id and its replicas rejoin their ISRs. A
 * consumer finally reads every acknowledged record exactly once, in order.
 */
class DiskAndRaftFailureProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long ADMIN_WAIT_MS = 30_000;
    private static final List<Integer> NODES = List.of(1, 2, 3);
    private static final String TOPIC = "events";
    private static final int PARTITIONS = 6;
    /** The nodes' log lines start with this timestamp, so that the test can tell when a node wrote one. */
    private static final String LOG_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSS";

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private final Map<Integer, NodeConfigFile> nodes = new TreeMap<>();
    private final Map<Integer, Path> configFiles = new TreeMap<>();
    private final Map<Integer, JvmProcess> running = new TreeMap<>();
    private int launches;
    private Path node1DirA;
    private Path node1DirB;

    /** Values acknowledged per partition, in acknowledgement order. */
    private final Map<Integer, ConcurrentLinkedQueue<Integer>> acknowledged = new ConcurrentHashMap<>();
    private final AtomicInteger acknowledgedCount = new AtomicInteger();
    private final AtomicReference<Exception> sendFailure = new AtomicReference<>();

    @Test
    void aFailedLogDirectoryMovesItsPartitionsAndARaftFailureStopsTheProcess() throws Exception {
        configureAndFormat();
        NODES.forEach(this::start);
        NODES.forEach(this::awaitStarted);
        try (Admin admin = admin(1, 3);
             KafkaProducer<String, String> producer = producer()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            awaitPartitions(admin, all -> all.values().stream().allMatch(p -> p.leader() != null && p.isr().size() == 3),
                    "leaders and full ISRs");
            // Node 1 creates its logs as it applies the metadata, which may come after the ISRs are full.
            await().atMost(WAIT).alias("node 1's logs of every partition").until(
                    () -> partitionsIn(node1DirA).size() + partitionsIn(node1DirB).size() == PARTITIONS);
            Set<Integer> inA = partitionsIn(node1DirA);
            Set<Integer> inB = partitionsIn(node1DirB);
            assertEquals(PARTITIONS / 2, inA.size(), "node 1 spreads its replicas over both directories");

            Thread sender = new Thread(() -> send(producer), "acks-all-sender");
            sender.start();
            awaitAcknowledged(600);

            failOneLogDirectoryOfNode1(admin, inA, inB);
            killNode2sRaftThreadAndRestartIt(admin);
            repairNode1sDirectoryAndRestartIt(admin);

            awaitAcknowledged(acknowledgedCount.get() + 300);
            sender.interrupt();
            sender.join(WAIT.toMillis());
            producer.flush();
        }
        assertNull(sendFailure.get(), "an acks=all send failed for good: " + sendFailure.get());
        checkEveryAcknowledgedRecordIsReadOnceInOrder();
    }

    private void failOneLogDirectoryOfNode1(Admin admin, Set<Integer> inA, Set<Integer> inB) throws Exception {
        Map<Integer, Long> sizesInB = segmentBytes(node1DirB, inB);
        int before = acknowledgedCount.get();
        long failedAtNanos = System.nanoTime();
        Files.writeString(node1DirA.resolve(FaultInjection.TRIGGER_FILE), "EIO");
        running.get(1).waitForLogLine("Broker 1 took log directory " + Pattern.quote(node1DirA.toString())
                + " \\(id \\S+\\) offline", WAIT);
        awaitPartitions(admin, all -> inA.stream().allMatch(p -> !ids(all.get(p).isr()).contains(1)
                && all.get(p).leader() != null && all.get(p).leader().id() != 1), "node 1 out of the failed partitions");
        report("I/O error in node 1's " + node1DirA.getFileName() + " -> its partitions " + inA + " left node 1's "
                + "ISRs and leaderships after " + elapsedMs(failedAtNanos) + " ms");

        awaitAcknowledged(before + 600);
        // The acknowledgements may all be other partitions' for a while (a batch waits out a retry): wait for each.
        await().atMost(WAIT).alias("node 1's other directory taking every one of its partitions' new records")
                .until(() -> segmentBytes(node1DirB, inB),
                        grown -> inB.stream().allMatch(p -> grown.get(p) > sizesInB.get(p)));
        Map<Integer, TopicPartitionInfo> now = describe(admin);
        for (int p : inB) {
            assertTrue(ids(now.get(p).isr()).contains(1), "node 1 still in sync for partition " + p + ": " + now.get(p));
        }
        assertTrue(running.get(1).isAlive(), running.get(1).describeLogs());
        report("node 1's " + node1DirB.getFileName() + " kept replicating partitions " + inB
                + "; acknowledged records so far: " + acknowledgedCount.get());
    }

    private void killNode2sRaftThreadAndRestartIt(Admin admin) throws Exception {
        JvmProcess node2 = running.get(2);
        Path metadataDir = nodes.get(2).dataDir().resolve("metadata");
        CompletableFuture<Long> exitedAtMillis = CompletableFuture.supplyAsync(() -> {
            node2.waitForExit(WAIT);
            return System.currentTimeMillis();
        });
        // Writes still succeed, fsyncs fail: the Raft thread's next flush throws, as on a disk that lost its cache.
        Files.writeString(metadataDir.resolve(FaultInjection.TRIGGER_FILE), "FSYNC");
        // Any committed record makes every voter write and flush its metadata log. If node 2 led the quorum the
        // request may fail or be retried after the election, so only the topic's existence is checked, later.
        long requestedAtMillis = System.currentTimeMillis();
        admin.createTopics(List.of(new NewTopic("probe", 1, (short) 2)));
        long exitedAt = exitedAtMillis.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        int status = node2.waitForExit(WAIT);
        assertEquals(1, status, node2.describeLogs());
        List<String> faultLines = node2.stderr().lines().filter(l -> l.contains("Stopping the process after a fault"))
                .toList();
        assertEquals(1, faultLines.size(), "one line says why" + node2.describeLogs());
        String faultLine = faultLines.get(0);
        assertTrue(faultLine.contains("Raft node 2 stopped: cannot flush raft log in "
                + metadataDir.resolve("__cluster_metadata-0") + ": Input/output error (injected)"), faultLine);
        long faultToExitMs = exitedAt - loggedAtMillis(faultLine);
        report("fsync failure in node 2's metadata log -> exit status " + status + ", " + faultToExitMs + " ms after "
                + "the fault line (" + (exitedAt - requestedAtMillis) + " ms after the request that made it write): "
                + faultLine.replaceAll(".*ProcessStoppingFaultHandler - ", ""));
        // The halt itself takes 0.3-0.7 s here (the JVM waits up to 300 ms for threads in native code, such as every
        // selector, before it exits); the bound is loose for a busy machine and still catches a process that lingers.
        assertTrue(faultToExitMs < 5_000, "a zombie: the process lived " + faultToExitMs + " ms past its fault");

        Files.delete(metadataDir.resolve(FaultInjection.TRIGGER_FILE));
        long restartedAtMillis = System.currentTimeMillis();
        start(2);
        awaitStarted(2);
        try (Admin viaNode2 = admin(2)) {
            await().atMost(WAIT).ignoreExceptions().alias("node 2 caught up with the metadata log").until(() ->
                    viaNode2.listTopics().names().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).contains("probe"));
        }
        awaitPartitions(admin, all -> all.values().stream().allMatch(p -> ids(p.isr()).contains(2)),
                "node 2 back in every ISR");
        report("node 2 restarted: unfenced, caught up and back in every ISR "
                + (System.currentTimeMillis() - restartedAtMillis) + " ms after launch");
    }

    private void repairNode1sDirectoryAndRestartIt(Admin admin) throws Exception {
        Files.delete(node1DirA.resolve(FaultInjection.TRIGGER_FILE));
        int stopped = running.get(1).stop(WAIT);
        assertTrue(stopped == 0 || stopped == 143, "node 1 exited with " + stopped + running.get(1).describeLogs());
        long restartedAtMillis = System.currentTimeMillis();
        start(1);
        awaitStarted(1);
        awaitPartitions(admin, all -> all.values().stream().allMatch(p -> ids(p.isr()).contains(1)),
                "node 1 back in every ISR, its repaired directory's partitions too");
        report("node 1 restarted with its repaired " + node1DirA.getFileName() + ": back in every ISR "
                + (System.currentTimeMillis() - restartedAtMillis) + " ms after launch");
    }

    /** When the node wrote the line, from its timestamp (see {@link #LOG_TIME_FORMAT}). */
    private static long loggedAtMillis(String line) {
        return LocalDateTime.parse(line.substring(0, line.indexOf(' ')), DateTimeFormatter.ISO_LOCAL_DATE_TIME)
                .atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    }

    private void send(KafkaProducer<String, String> producer) {
        for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
            int value = i;
            int partition = value % PARTITIONS;
            producer.send(new ProducerRecord<>(TOPIC, partition, "k" + value, "v" + value), (metadata, error) -> {
                if (error != null) {
                    sendFailure.compareAndSet(null, error);
                    return;
                }
                acknowledged.computeIfAbsent(partition, p -> new ConcurrentLinkedQueue<>()).add(value);
                acknowledgedCount.incrementAndGet();
            });
            if (value % 60 == 59) {
                sleep(5); // a steady stream, not a flood
            }
        }
    }

    private void checkEveryAcknowledgedRecordIsReadOnceInOrder() {
        Map<Integer, List<Integer>> read = readAll();
        int total = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            List<Integer> log = read.getOrDefault(p, List.of());
            List<Integer> acked = new ArrayList<>(acknowledged.getOrDefault(p, new ConcurrentLinkedQueue<>()));
            assertEquals(log.size(), new HashSet<>(log).size(), "partition " + p + " holds a record twice");
            Set<Integer> present = new HashSet<>(log);
            assertTrue(present.containsAll(acked), "partition " + p + " lost acknowledged records: "
                    + acked.stream().filter(v -> !present.contains(v)).limit(20).toList());
            Set<Integer> ackedSet = new HashSet<>(acked);
            assertEquals(acked.stream().sorted().toList(), log.stream().filter(ackedSet::contains).toList(),
                    "partition " + p + " out of send order");
            total += acked.size();
        }
        report(total + " acknowledged records read back exactly once, in order");
    }

    private Map<Integer, List<Integer>> readAll() {
        Map<Integer, List<Integer>> values = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(1, 2, 3),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(TOPIC, p));
            }
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofMillis(ADMIN_WAIT_MS));
            consumer.seekToBeginning(partitions);
            long deadlineNanos = System.nanoTime() + WAIT.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))
                    && System.nanoTime() - deadlineNanos < 0) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.computeIfAbsent(record.partition(), p -> new ArrayList<>())
                            .add(Integer.parseInt(record.value().substring(1)));
                }
            }
            for (TopicPartition tp : partitions) {
                assertEquals(ends.get(tp), consumer.position(tp), "the consumer did not reach the end of " + tp);
            }
        }
        return values;
    }

    // ---- cluster plumbing -----------------------------------------------------------------------------------

    private void configureAndFormat() {
        List<NodeConfigFile> voters = new ArrayList<>();
        for (int id : NODES) {
            NodeConfigFile node = NodeConfigFile.combined(id, dataDir.resolve("node-" + id))
                    .with("broker.session.timeout.ms", "3000")
                    .with("broker.connection.loss.grace.ms", "1000")
                    .with("replica.fetch.backoff.ms", "100");
            voters.add(node);
            nodes.put(id, node);
        }
        voters.forEach(node -> node.voters(voters));
        node1DirA = nodes.get(1).dataDir().resolve("logs-a");
        node1DirB = nodes.get(1).dataDir().resolve("logs-b");
        nodes.get(1).with("log.dirs", node1DirA + "," + node1DirB);
        // What 'kraft-cli format' writes (its own tests cover the command), without more JVM launches.
        String clusterId = MetaProperties.randomUuid();
        nodes.forEach((id, node) -> {
            configFiles.put(id, node.write());
            List<Path> directories = id == 1
                    ? List.of(node1DirA, node1DirB, node.dataDir().resolve("metadata")) : node.directories();
            directories.forEach(directory -> MetaProperties.forNewDirectory(clusterId, id).write(directory));
        });
    }

    private void start(int nodeId) {
        launches++;
        running.put(nodeId, processes.start(JvmSpec.kraftCli("node-" + nodeId + "-run-" + launches, "start",
                "--config", configFiles.get(nodeId).toString()).withJvmFlags(
                "-D" + FaultInjection.ENABLE_PROPERTY + "=true",
                "-Dkraft.log.pattern=%d{" + LOG_TIME_FORMAT + "} %p %m (%c)%n")));
    }

    private void awaitStarted(int nodeId) {
        JvmProcess process = running.get(nodeId);
        process.waitForLogLine("kraft node " + nodeId + " ready", WAIT);
        process.waitForLogLine("Broker " + nodeId + " is unfenced", WAIT);
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(1, 3),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000,
                ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 50,
                ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 50,
                ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200,
                ProducerConfig.METADATA_MAX_AGE_CONFIG, 1_000), new StringSerializer(), new StringSerializer());
    }

    private Admin admin(int... nodeIds) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(nodeIds),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000",
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200"));
    }

    private String bootstrap(int... nodeIds) {
        return java.util.Arrays.stream(nodeIds).mapToObj(id -> "127.0.0.1:" + nodes.get(id).brokerPort())
                .collect(Collectors.joining(","));
    }

    private static Map<Integer, TopicPartitionInfo> describe(Admin admin) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(TOPIC)).allTopicNames()
                .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).get(TOPIC);
        Map<Integer, TopicPartitionInfo> byId = new TreeMap<>();
        description.partitions().forEach(p -> byId.put(p.partition(), p));
        return byId;
    }

    /** Polls Admin describeTopics until the partitions satisfy the condition. */
    private static void awaitPartitions(Admin admin, Predicate<Map<Integer, TopicPartitionInfo>> condition,
                                        String what) {
        // A node may go away under a request: ask again.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).ignoreExceptions().alias(what)
                .until(() -> describe(admin), all -> all.size() == PARTITIONS && condition.test(all));
    }

    /** The partitions of the topic whose logs are in {@code dir}. */
    private static Set<Integer> partitionsIn(Path dir) {
        Set<Integer> found = new HashSet<>();
        for (int p = 0; p < PARTITIONS; p++) {
            if (Files.isDirectory(dir.resolve(TOPIC + "-" + p))) {
                found.add(p);
            }
        }
        return found;
    }

    /** The bytes in each partition's segment files under {@code dir}. */
    private static Map<Integer, Long> segmentBytes(Path dir, Set<Integer> partitions) {
        Map<Integer, Long> sizes = new HashMap<>();
        for (int p : partitions) {
            try (Stream<Path> files = Files.list(dir.resolve(TOPIC + "-" + p))) {
                long total = 0;
                for (Path file : files.filter(f -> f.toString().endsWith(".log")).toList()) {
                    total += Files.size(file);
                }
                sizes.put(p, total);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sizes;
    }

    private static Set<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).collect(Collectors.toSet());
    }

    private void awaitAcknowledged(int count) {
        await().atMost(WAIT).failFast(() -> {
            if (sendFailure.get() != null) {
                throw new AssertionError("an acks=all send failed for good", sendFailure.get());
            }
        }).alias(count + " records acknowledged").until(() -> acknowledgedCount.get() >= count);
    }

    private static long elapsedMs(long sinceNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
    }

    private static void report(String line) {
        System.out.println("[disk-and-raft-failure] " + line);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
