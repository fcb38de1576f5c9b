package io.kraft.systest;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A consumer group member as its own process, for kill -9 tests: subscribes, commits after every non-empty poll,
 * and prints "assigned p,q,..." and "position p offset" lines on each assignment, and "consumed N" as it goes.
 * Arguments: bootstrap servers, topic, group id, session timeout in ms.
 */
public final class GroupMemberMain {
    private GroupMemberMain() {
    }

    public static void main(String[] args) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[2]);
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, args[3]);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(args[1]), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    commit(consumer);
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    TreeSet<Integer> assigned = new TreeSet<>();
                    consumer.assignment().forEach(tp -> assigned.add(tp.partition()));
                    StringBuilder line = new StringBuilder("assigned ");
                    assigned.forEach(p -> line.append(p).append(','));
                    System.out.println(line);
                    for (TopicPartition partition : partitions) {
                        System.out.println("position " + partition.partition() + " " + consumer.position(partition));
                    }
                }
            });
            long consumed = 0;
            while (true) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                if (!records.isEmpty()) {
                    consumed += records.count();
                    commit(consumer);
                    System.out.println("consumed " + consumed);
                }
            }
        }
    }

    private static void commit(KafkaConsumer<byte[], byte[]> consumer) {
        try {
            consumer.commitSync();
        } catch (RebalanceInProgressException e) {
            // the next poll completes the rebalance; revocation commits what was processed
        }
    }
}
