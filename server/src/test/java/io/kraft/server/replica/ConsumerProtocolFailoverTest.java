package io.kraft.server.replica;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.group.GroupConfig;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.replica.ReplicationConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer-protocol group (KIP-848) across the loss of its coordinator's broker: the new coordinator replays the
 * group from the replicated {@code __consumer_offsets}, so the member keeps its id and the group its epoch, and
 * consumption resumes at the committed offsets with every record processed once.
 */
class ConsumerProtocolFailoverTest {
    private static final String CLUSTER_ID = "S0lQODQ4ZmFpbG92ZXJPSw";
    private static final String TOPIC = "kip848-failover";
    private static final String GROUP = "kip848-failover-group";
    private static final int PARTITIONS = 6;

    @TempDir
    Path dir;
    private InProcessCluster cluster;

    @AfterEach
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void produce(int from, int count) {
        Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, Integer.toString(i)));
            }
            producer.flush();
        }
    }

    /** Polls, processes and commits until {@code total} distinct values were processed; counts each value. */
    private static void consumeUntil(KafkaConsumer<String, String> consumer, Map<String, Integer> processed,
                                     int total) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (processed.size() < total && System.nanoTime() < deadline) {
            var records = consumer.poll(Duration.ofMillis(100));
            for (ConsumerRecord<String, String> record : records) {
                processed.merge(record.value(), 1, Integer::sum);
            }
            if (!records.isEmpty()) {
                consumer.commitSync(Duration.ofSeconds(60));
            }
        }
    }

    private static ConsumerGroupDescription describe(Admin admin) throws Exception {
        return admin.describeConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS).get(GROUP);
    }

    @Test
    void theGroupResumesOnTheNewCoordinatorAtItsCommittedOffsets() throws Exception {
        cluster = InProcessCluster.start(dir, CLUSTER_ID, List.of(2, 3, 4), Map.of(
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600",
                ReplicationConfig.REPLICA_FETCH_BACKOFF_MS, "100"), Map.of(
                GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3", GroupConfig.OFFSETS_TOPIC_REPLICATION_FACTOR, "3",
                ConsumerGroupConfig.HEARTBEAT_INTERVAL_MS, "500", ConsumerGroupConfig.SESSION_TIMEOUT_MS, "20000"));
        Admin admin = cluster.admin();
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get(30, TimeUnit.SECONDS);
        produce(0, 300);
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Integer> processed = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = cluster.closeLater(new KafkaConsumer<>(props,
                new StringDeserializer(), new StringDeserializer()))) {
            consumer.subscribe(List.of(TOPIC));
            consumeUntil(consumer, processed, 300);
            assertEquals(300, processed.size());
            ConsumerGroupDescription before = describe(admin);
            String memberId = consumer.groupMetadata().memberId();
            int coordinator = before.coordinator().id();

            cluster.stopBroker(coordinator);
            produce(300, 300);
            consumeUntil(consumer, processed, 600);

            assertEquals(600, processed.size(), "every record processed");
            assertEquals(0, processed.values().stream().filter(count -> count > 1).count(),
                    "no record processed twice");
            awaitTrue(() -> {
                try {
                    return describe(admin).coordinator().id() != coordinator;
                } catch (Exception e) {
                    return false;
                }
            }, "a new coordinator");
            ConsumerGroupDescription after = describe(admin);
            assertEquals(List.of(memberId), after.members().stream().map(m -> m.consumerId()).toList(),
                    "the member kept its id");
            assertEquals(before.groupEpoch(), after.groupEpoch(), "the group kept its epoch");
        }
    }
}
