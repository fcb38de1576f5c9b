package io.kraft.server.group;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.GroupConfig;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumer-protocol groups (KIP-848) when things change under them: a member in another JVM killed with SIGKILL
 * loses its partitions once its session ends, a pattern subscription picks up a topic created afterwards, and an
 * empty group moves between the classic and the consumer protocol keeping its committed offsets.
 */
class ConsumerProtocolFailuresTest {
    private static final int SESSION_MS = 6_000;

    @TempDir
    static Path dir;
    private static TestNode node;

    @BeforeAll
    static void startNode() throws Exception {
        node = new TestNode(dir, Map.of(GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3",
                ConsumerGroupConfig.HEARTBEAT_INTERVAL_MS, "500",
                ConsumerGroupConfig.SESSION_TIMEOUT_MS, Integer.toString(SESSION_MS))).start();
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    private static void produce(String topic, int partitions, int count) {
        Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, null, new byte[4]));
            }
            producer.flush();
        }
    }

    private static ConsumerGroupDescription describe(String group) {
        try {
            return node.admin().describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aKilledMemberLosesItsPartitionsAfterTheSessionTimeout() throws Exception {
        String topic = "kip848-killed";
        String group = "kip848-killed-group";
        node.createTopic(topic, 4, Map.of());
        produce(topic, 4, 400);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ConsumerProtocolMemberMain.class.getName(),
                node.bootstrap(), topic, group)
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        try (ConsumerProtocolGroupTest.Member survivor = new ConsumerProtocolGroupTest.Member(
                ConsumerProtocolGroupTest.consumerProps(node.bootstrap(), group), topic, new ConcurrentHashMap<>(),
                failures)) {
            awaitTrue(() -> describe(group).members().size() == 2 && survivor.assigned() == 2,
                    "the child and the survivor share the partitions");
            child.destroyForcibly(); // SIGKILL: no leave, the session has to run out
            child.waitFor(30, TimeUnit.SECONDS);
            awaitTrue(() -> survivor.assigned() == 4, "the survivor owns every partition");
            assertEquals(1, describe(group).members().size());
            assertTrue(failures.isEmpty(), () -> "failures: " + failures);
        } finally {
            child.destroyForcibly();
        }
    }

    /** Consumes from the committed position until {@code count} records came; commits; returns the first offsets. */
    private static Map<Integer, Long> consumeAndCommit(Properties props, String topic, int count) {
        Map<Integer, Long> firstOffsets = new ConcurrentHashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            int seen = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (seen < count && System.nanoTime() < deadline) {
                for (var record : consumer.poll(Duration.ofMillis(100))) {
                    firstOffsets.putIfAbsent(record.partition(), record.offset());
                    seen++;
                }
            }
            assertEquals(count, seen);
            consumer.commitSync();
        }
        return firstOffsets;
    }

    @Test
    void anEmptyGroupMovesBetweenTheClassicAndTheConsumerProtocol() throws Exception {
        String topic = "kip848-migrate";
        String group = "kip848-migrate-group";
        node.createTopic(topic, 2, Map.of());
        Properties classic = ConsumerProtocolGroupTest.consumerProps(node.bootstrap(), group);
        classic.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        Properties consumer = ConsumerProtocolGroupTest.consumerProps(node.bootstrap(), group);

        produce(topic, 2, 20);
        assertEquals(Map.of(0, 0L, 1, 0L), consumeAndCommit(classic, topic, 20));
        produce(topic, 2, 20);
        assertEquals(Map.of(0, 10L, 1, 10L), consumeAndCommit(consumer, topic, 20), "resumed at the classic commits");
        assertEquals(GroupType.CONSUMER, describe(group).type());
        produce(topic, 2, 20);
        assertEquals(Map.of(0, 20L, 1, 20L), consumeAndCommit(classic, topic, 20), "and back");
        assertEquals(GroupType.CLASSIC, describe(group).type());
    }

    @Test
    void aPatternSubscriptionPicksUpATopicCreatedLater() throws Exception {
        node.createTopic("kip848-re-first", 2, Map.of());
        produce("kip848-re-first", 2, 10);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger records = new AtomicInteger();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                ConsumerProtocolGroupTest.consumerProps(node.bootstrap(), "kip848-re-group"))) {
            consumer.subscribe(new SubscriptionPattern("kip848-re-.*"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            boolean created = false;
            while (!seen.contains("kip848-re-later") && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> {
                    seen.add(r.topic());
                    records.incrementAndGet();
                });
                if (!created && seen.contains("kip848-re-first")) {
                    node.createTopic("kip848-re-later", 3, Map.of());
                    produce("kip848-re-later", 3, 10);
                    created = true;
                }
            }
            assertEquals(Set.of("kip848-re-first", "kip848-re-later"), seen);
            assertTrue(consumer.assignment().contains(new TopicPartition("kip848-re-later", 2)));
        }
    }
}
