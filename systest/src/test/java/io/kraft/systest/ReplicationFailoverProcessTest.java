package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
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
 * Replication with real processes: one controller and three brokers, a topic with replication factor 3 and
 * min.insync.replicas 2, an idempotent acks=all producer sending all along. The partition leader is killed with
 * kill -9; the producer carries on with the new leader (elected from the ISR), and a consumer afterwards reads
 * every acknowledged record exactly once, in order. The time from the kill to the first acknowledgement from
 * the new leader is printed.
 */
class ReplicationFailoverProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long ADMIN_WAIT_MS = 30_000;
    private static final int CONTROLLER = 1;
    private static final List<Integer> BROKERS = List.of(2, 3, 4);
    private static final String TOPIC = "replicated";

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private final Map<Integer, NodeConfigFile> nodes = new TreeMap<>();
    private final Map<Integer, Path> configFiles = new TreeMap<>();
    private final Map<Integer, JvmProcess> running = new TreeMap<>();

    @Test
    void anAcksAllProducerLosesNothingWhenThePartitionLeaderIsKilled() throws Exception {
        configureAndFormat();
        nodes.keySet().forEach(this::start);
        nodes.keySet().forEach(this::awaitStarted);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
                    .all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            awaitPartition(admin, p -> p.leader() != null && p.isr().size() == 3, "a leader and a full ISR");

            ConcurrentLinkedQueue<Integer> acknowledged = new ConcurrentLinkedQueue<>();
            AtomicLong killedAtNanos = new AtomicLong(Long.MAX_VALUE);
            AtomicLong deadAtNanos = new AtomicLong(Long.MAX_VALUE);
            AtomicLong firstAckAfterKillNanos = new AtomicLong(Long.MAX_VALUE);
            AtomicReference<Exception> failure = new AtomicReference<>();
            try (KafkaProducer<String, String> producer = producer()) {
                Thread sender = new Thread(() -> {
                    for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
                        int value = i;
                        long sentAtNanos = System.nanoTime();
                        producer.send(new ProducerRecord<>(TOPIC, "k" + value, "v" + value), (metadata, error) -> {
                            if (error != null) {
                                failure.compareAndSet(null, error);
                                return;
                            }
                            acknowledged.add(value);
                            // Only a record sent once the old leader was gone can have been acknowledged by the new
                            // one: the old leader answers records sent just before the kill while it dies.
                            if (sentAtNanos > deadAtNanos.get()) {
                                firstAckAfterKillNanos.compareAndSet(Long.MAX_VALUE, System.nanoTime());
                            }
                        });
                        if (value % 50 == 49) {
                            pause(5); // a steady stream, not a flood
                        }
                    }
                }, "acks-all-sender");
                sender.start();
                awaitCount(acknowledged, 2_000);

                int leader = awaitPartition(admin, p -> p.leader() != null, "a leader").leader().id();
                int acknowledgedBeforeKill = acknowledged.size();
                killedAtNanos.set(System.nanoTime());
                running.get(leader).kill(WAIT);
                deadAtNanos.set(System.nanoTime()); // its exit is seen: it answers nothing more
                awaitCount(acknowledged, acknowledgedBeforeKill + 2_000);
                long failoverMs = TimeUnit.NANOSECONDS.toMillis(firstAckAfterKillNanos.get() - killedAtNanos.get());
                TopicPartitionInfo after = awaitPartition(admin, p -> p.leader() != null && p.leader().id() != leader,
                        "a new leader");
                report("kill -9 of leader " + leader + " -> first acks=all acknowledgement from new leader "
                        + after.leader().id() + " after " + failoverMs + " ms (ISR now "
                        + after.isr().stream().map(Node::id).toList() + ")");
                sender.interrupt();
                sender.join(WAIT.toMillis());
                producer.flush();
            }
            assertEquals(null, failure.get(), "an acks=all send failed for good");

            List<Integer> acked = new ArrayList<>(acknowledged);
            List<Integer> read = readAll();
            Set<Integer> distinct = new HashSet<>(read);
            assertEquals(read.size(), distinct.size(), "the log holds a record twice");
            assertTrue(distinct.containsAll(acked), "acknowledged records are missing: "
                    + acked.stream().filter(v -> !distinct.contains(v)).limit(20).toList());
            List<Integer> ackedInLogOrder = read.stream().filter(new HashSet<>(acked)::contains).toList();
            assertEquals(acked.stream().sorted().toList(), ackedInLogOrder, "records are out of send order");
            report(acked.size() + " acknowledged records read back exactly once, in order (" + read.size()
                    + " in the log)");
        }
    }

    private List<Integer> readAll() {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<Integer> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), Duration.ofMillis(ADMIN_WAIT_MS)).get(tp);
            consumer.seekToBeginning(List.of(tp));
            long deadlineNanos = System.nanoTime() + WAIT.toNanos();
            while (consumer.position(tp) < end && System.nanoTime() < deadlineNanos) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(Integer.parseInt(record.value().substring(1)));
                }
            }
            assertEquals(end, consumer.position(tp), "the consumer did not reach the end offset");
        }
        return values;
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000,
                ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 50,
                ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 50,
                ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200,
                ProducerConfig.METADATA_MAX_AGE_CONFIG, 1_000), new StringSerializer(), new StringSerializer());
    }

    private void configureAndFormat() {
        NodeConfigFile controller = NodeConfigFile.controller(CONTROLLER, dataDir.resolve("node-" + CONTROLLER))
                .with("broker.session.timeout.ms", "3000")
                .with("broker.connection.loss.grace.ms", "1000");
        nodes.put(CONTROLLER, controller);
        for (int id : BROKERS) {
            nodes.put(id, NodeConfigFile.broker(id, dataDir.resolve("node-" + id)).voters(List.of(controller))
                    .with("replica.fetch.backoff.ms", "100"));
        }
        // What 'kraft-cli format' writes (its own tests cover the command), without more JVM launches.
        String clusterId = MetaProperties.randomUuid();
        nodes.forEach((id, node) -> {
            configFiles.put(id, node.write());
            node.directories().forEach(directory -> MetaProperties.forNewDirectory(clusterId, id).write(directory));
        });
    }

    private void start(int nodeId) {
        running.put(nodeId, processes.start(JvmSpec.kraftCli("node-" + nodeId, "start", "--config",
                configFiles.get(nodeId).toString())));
    }

    private void awaitStarted(int nodeId) {
        JvmProcess process = running.get(nodeId);
        process.waitForLogLine("kraft node " + nodeId + " ready", WAIT);
        if (nodeId != CONTROLLER) {
            process.waitForLogLine("Broker " + nodeId + " is unfenced", WAIT);
        }
    }

    private String bootstrap() {
        return BROKERS.stream().map(id -> "127.0.0.1:" + nodes.get(id).brokerPort()).collect(Collectors.joining(","));
    }

    private Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000",
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200"));
    }

    /** Polls Admin describeTopics until the partition satisfies the condition. */
    private static TopicPartitionInfo awaitPartition(Admin admin, java.util.function.Predicate<TopicPartitionInfo> condition,
                                                     String what) {
        TopicPartitionInfo last = null;
        long deadlineNanos = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() - deadlineNanos < 0) {
            try {
                last = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS)
                        .get(TOPIC).partitions().get(0);
                if (condition.test(last)) {
                    return last;
                }
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                // a broker went away under the request, or does not know the topic yet: ask again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            pause(20);
        }
        throw new AssertionError("timed out waiting for " + what + "; the partition is " + last);
    }

    private static void awaitCount(ConcurrentLinkedQueue<Integer> acknowledged, int count) {
        long deadlineNanos = System.nanoTime() + WAIT.toNanos();
        while (acknowledged.size() < count) {
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new AssertionError("only " + acknowledged.size() + " of " + count + " records acknowledged");
            }
            pause(20);
        }
    }

    private static void report(String line) {
        System.out.println("[replication-failover] " + line);
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
