package io.kraft.server.group;

import io.kraft.broker.group.GroupConfig;
import io.kraft.broker.group.share.ShareGroupConfig;
import io.kraft.server.TestNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The node and clients share group tests run with: few offsets partitions, quick heartbeats, groups reading from the
 * earliest offset, and topics of one partition filled in several small batches.
 */
final class ShareGroupTests {
    private ShareGroupTests() {
    }

    /** A node (not started) with the share group settings of these tests, and {@code more} on top. */
    static TestNode node(Path dir, Map<String, String> more) throws IOException {
        Map<String, String> config = new HashMap<>(Map.of(GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3",
                ShareGroupConfig.HEARTBEAT_INTERVAL_MS, "500",
                ShareGroupConfig.AUTO_OFFSET_RESET, "earliest"));
        config.putAll(more);
        return new TestNode(dir, config);
    }

    /** A {@code KafkaShareConsumer}'s settings for {@code group}, with explicit acknowledgement or the implicit one. */
    static Properties consumerProps(TestNode node, String group, int maxPollRecords, boolean explicit) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPollRecords));
        if (explicit) {
            props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        }
        return props;
    }

    /** Creates {@code topic} with one partition and writes records k0/v0 ... in several small batches. */
    static void createAndFill(TestNode node, String topic, int records) throws Exception {
        node.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "200"); // several small batches
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            producer.flush();
        }
    }
}
