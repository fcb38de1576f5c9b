package io.kraft.testkit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The testkit used as an application's tests use it: clusters of each shape, nodes killed and restarted. */
class KraftClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int RECORDS = 200;

    @Test
    void keepsAcknowledgedRecordsWhenTheLeaderIsKilledAndRestarted() throws Exception {
        // A short session, so the controller fences the killed node (and moves its leadership) within the test.
        try (KraftCluster cluster = KraftCluster.builder().nodes(3)
                .property("broker.session.timeout.ms", "3000")
                .property("broker.heartbeat.interval.ms", "500")
                .property("replica.lag.time.max.ms", "3000").start();
             Admin admin = admin(cluster)) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            produce(cluster, "orders", 0, RECORDS);

            int leader = describe(admin, "orders").partitions().get(0).leader().id();
            cluster.kill(leader);
            assertFalse(cluster.isRunning(leader));
            produce(cluster, "orders", RECORDS, RECORDS);
            assertEquals(2 * RECORDS, consume(cluster, "orders", 2 * RECORDS).size(),
                    "every acknowledged record, from before and after the kill");

            cluster.start(leader);
            await().atMost(WAIT).until(() -> describe(admin, "orders").partitions().get(0).isr().size() == 3);
            // The restarted node recovered its log and caught up: it can lead again and serves everything.
            for (int other : cluster.brokerIds()) {
                if (other != leader) {
                    cluster.restart(other);
                }
            }
            assertEquals(consumedValues(0, 2 * RECORDS), consume(cluster, "orders", 2 * RECORDS));
        }
    }

    @Test
    void splitClusterServesClientsAndRestartsABroker() throws Exception {
        try (KraftCluster cluster = KraftCluster.builder().split(1, 2).start()) {
            assertEquals(List.of(1, 2), cluster.brokerIds());
            assertEquals(List.of(1, 2, KraftCluster.FIRST_CONTROLLER_ID), cluster.nodeIds());
            assertEquals(2, cluster.bootstrapServers().split(",").length);
            produce(cluster, "split", 0, 10);
            cluster.stop(2);
            assertEquals(1, cluster.bootstrapServers().split(",").length, "a stopped broker is not a bootstrap server");
            cluster.restart(2);
            assertEquals(consumedValues(0, 10), consume(cluster, "split", 10));
        }
    }

    @Test
    void closeDeletesTheTemporaryDirectory() {
        Path dir;
        try (KraftCluster cluster = KraftCluster.builder().start()) {
            dir = cluster.directory();
            assertTrue(Files.isDirectory(dir.resolve("node-1")));
        }
        assertFalse(Files.exists(dir));
    }

    @Test
    void refusesUnknownNodes() {
        try (KraftCluster cluster = KraftCluster.builder().build()) {
            assertThrows(IllegalArgumentException.class, () -> cluster.kill(7));
        }
        assertThrows(IllegalArgumentException.class, () -> KraftCluster.builder().nodes(0));
    }

    private static Admin admin(KraftCluster cluster) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000"));
    }

    private static TopicDescription describe(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(WAIT.toSeconds(), TimeUnit.SECONDS).get(topic);
    }

    /** Sends records "from".."from+count-1" with acks=all and waits for every acknowledgement. */
    private static void produce(KraftCluster cluster, String topic, int from, int count) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "90000"), new StringSerializer(), new StringSerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = from; i < from + count; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, 0, null, "record-" + i)));
            }
            for (Future<RecordMetadata> acknowledgement : sent) {
                acknowledgement.get();
            }
        }
    }

    private static List<String> consumedValues(int from, int count) {
        List<String> values = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            values.add("record-" + i);
        }
        return values;
    }

    /** The first {@code count} distinct values of partition 0, read from the beginning. */
    private static List<String> consume(KraftCluster cluster, String topic, int count) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.seekToBeginning(List.of(new TopicPartition(topic, 0)));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (values.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (!values.contains(record.value())) {
                        values.add(record.value());
                    }
                }
            }
        }
        return values;
    }
}
