package io.kraft.testkit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A share group's delivery state moves with the partition's leadership (KIP-932): on three nodes, the new leader of a
 * partition reads the state the old one wrote to {@code __share_group_state}, so records acknowledged before the
 * leader stopped are not delivered again and those it had handed out unacknowledged are.
 */
class ShareGroupLeaderChangeTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String TOPIC = "jobs";

    @Test
    void aNewLeaderResumesFromTheWrittenState() throws Exception {
        try (KraftCluster cluster = KraftCluster.builder().nodes(3)
                .property("broker.session.timeout.ms", "3000")
                .property("broker.heartbeat.interval.ms", "500")
                .property("replica.lag.time.max.ms", "3000")
                .property("offsets.topic.num.partitions", "3")
                .property("share.coordinator.state.topic.num.partitions", "3")
                .property("group.share.heartbeat.interval.ms", "500")
                .property("share.auto.offset.reset", "earliest").start();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                     AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000"))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            produce(cluster, 20);

            KafkaShareConsumer<String, String> before = new KafkaShareConsumer<>(consumerProps(cluster));
            int leader;
            try {
                before.subscribe(List.of(TOPIC));
                Map<Long, ConsumerRecord<String, String>> got = new TreeMap<>();
                await().atMost(WAIT).until(() -> {
                    before.poll(Duration.ofMillis(200)).forEach(r -> got.put(r.offset(), r));
                    return got.size() == 20;
                });
                for (long offset = 0; offset < 10; offset++) {
                    before.acknowledge(got.get(offset), AcknowledgeType.ACCEPT);
                }
                before.commitSync(Duration.ofSeconds(60)).forEach((tp, error) -> assertTrue(error.isEmpty(),
                        tp + ": " + error));
                leader = leaderOf(admin);
                cluster.stop(leader);
                await().atMost(WAIT).until(() -> {
                    int now = leaderOf(admin);
                    return now >= 0 && now != leader;
                });
            } finally {
                before.close(Duration.ZERO);
            }
            assertNotEquals(leader, leaderOf(admin));

            Properties afterProps = consumerProps(cluster);
            try (KafkaShareConsumer<String, String> after = new KafkaShareConsumer<>(afterProps)) {
                after.subscribe(List.of(TOPIC));
                Map<Long, Short> deliveries = new TreeMap<>();
                await().atMost(WAIT).until(() -> {
                    after.poll(Duration.ofMillis(200)).forEach(r -> {
                        deliveries.put(r.offset(), r.deliveryCount().orElse((short) -1));
                        after.acknowledge(r, AcknowledgeType.ACCEPT);
                    });
                    return deliveries.size() >= 10;
                });
                assertEquals(LongStream.range(10, 20).boxed().toList(), List.copyOf(deliveries.keySet()),
                        "offsets delivered by the new leader");
            }
        }
    }

    private static int leaderOf(Admin admin) throws Exception {
        var leader = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(WAIT.toSeconds(), TimeUnit.SECONDS)
                .get(TOPIC).partitions().get(0).leader();
        return leader == null ? -1 : leader.id();
    }

    private static Properties consumerProps(KraftCluster cluster) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "workers");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "50");
        props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        return props;
    }

    private static void produce(KraftCluster cluster, int records) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, "k" + i, "v" + i)).get();
            }
        }
    }
}
