package io.kraft.server.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.GroupConfig;
import io.kraft.broker.group.share.ShareGroupConfig;
import io.kraft.broker.group.share.state.ShareCoordinatorConfig;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
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
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A share group's delivery state survives a broker restart (KIP-932's {@code __share_group_state}): with unmodified
 * kafka-clients 4.4 {@link KafkaShareConsumer}s, what was acknowledged before the restart is not delivered again, and
 * what was acquired but not acknowledged is, with its delivery count.
 */
class ShareGroupRestartTest {
    private static final String TOPIC = "share-durable";
    private static final String GROUP = "durable";

    @Test
    void acknowledgedRecordsStayAcknowledgedAcrossARestart(@TempDir Path dir) throws Exception {
        try (TestNode node = new TestNode(dir, Map.of(GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3",
                ShareCoordinatorConfig.STATE_TOPIC_NUM_PARTITIONS, "3",
                ShareGroupConfig.HEARTBEAT_INTERVAL_MS, "500",
                ShareGroupConfig.AUTO_OFFSET_RESET, "earliest")).start()) {
            node.admin().createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            produce(node, 20);

            KafkaShareConsumer<String, String> before = new KafkaShareConsumer<>(consumerProps(node));
            try {
                before.subscribe(List.of(TOPIC));
                Map<Long, ConsumerRecord<String, String>> got = new TreeMap<>();
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                    before.poll(Duration.ofMillis(200)).forEach(r -> got.put(r.offset(), r));
                    return got.size() == 20;
                });
                for (long offset = 0; offset < 10; offset++) {
                    before.acknowledge(got.get(offset), AcknowledgeType.ACCEPT);
                }
                before.commitSync(Duration.ofSeconds(30)).forEach((tp, error) -> assertTrue(error.isEmpty(),
                        tp + ": " + error));
                // Offsets 10-19 stay acquired by this consumer, unacknowledged, while the broker restarts.
                node.restart();
            } finally {
                before.close(Duration.ZERO);
            }

            try (KafkaShareConsumer<String, String> after = new KafkaShareConsumer<>(consumerProps(node))) {
                after.subscribe(List.of(TOPIC));
                Map<Long, Short> deliveries = new TreeMap<>();
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                    after.poll(Duration.ofMillis(200)).forEach(r -> {
                        deliveries.put(r.offset(), r.deliveryCount().orElse((short) -1));
                        after.acknowledge(r, AcknowledgeType.ACCEPT);
                    });
                    return deliveries.size() >= 10;
                });
                assertEquals(LongStream.range(10, 20).boxed().toList(), List.copyOf(deliveries.keySet()),
                        "offsets delivered after the restart");
                deliveries.forEach((offset, count) -> assertEquals((short) 2, count, "delivery count of " + offset));
            }
        }
    }

    private static Properties consumerProps(TestNode node) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "50");
        props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        return props;
    }

    private static void produce(TestNode node, int records) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "200"); // several small batches
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "k" + i, "v" + i));
            }
            producer.flush();
        }
    }
}
