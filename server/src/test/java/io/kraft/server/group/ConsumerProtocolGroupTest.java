package io.kraft.server.group;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.GroupConfig;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unmodified kafka-clients 4.4 consumers with {@code group.protocol=consumer} (KIP-848) against one in-process node:
 * server-side assignment and incremental reconciliation while the group grows and shrinks under a steady producer,
 * with manual commits, so every record is processed exactly once.
 */
class ConsumerProtocolGroupTest {
    private static final int PARTITIONS = 12;

    @TempDir
    static Path dir;
    private static TestNode node;

    @BeforeAll
    static void startNode() throws Exception {
        node = new TestNode(dir, Map.of(GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "5",
                ConsumerGroupConfig.HEARTBEAT_INTERVAL_MS, "500",
                ConsumerGroupConfig.SESSION_TIMEOUT_MS, "10000")).start();
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    static Properties consumerProps(String bootstrap, String group) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "200");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }

    /** A member on its own thread: processes a poll's records, then commits them synchronously. */
    static final class Member implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final java.util.Set<TopicPartition> owned = ConcurrentHashMap.newKeySet();
        private final Thread thread;

        Member(Properties props, String topic, Map<Long, AtomicInteger> processed, List<Throwable> failures) {
            this.consumer = new KafkaConsumer<>(props);
            this.thread = new Thread(() -> run(topic, processed, failures), "consumer-protocol-member");
            thread.start();
        }

        private void run(String topic, Map<Long, AtomicInteger> processed, List<Throwable> failures) {
            try {
                consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                    @Override
                    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                        owned.removeAll(partitions);
                    }

                    @Override
                    public void onPartitionsLost(Collection<TopicPartition> partitions) {
                        owned.removeAll(partitions);
                    }

                    @Override
                    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                        owned.addAll(partitions);
                    }
                });
                while (!stop.get()) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                    for (ConsumerRecord<byte[], byte[]> record : records) {
                        long key = ((long) record.partition() << 40) | record.offset();
                        processed.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                    }
                    if (!records.isEmpty()) {
                        consumer.commitSync(); // everything processed is committed before the next poll may revoke
                    }
                }
            } catch (Throwable t) {
                failures.add(t);
            } finally {
                consumer.close(Duration.ofSeconds(10));
            }
        }

        int assigned() {
            return owned.size();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(60_000);
        }
    }

    /** Produces record after record to every partition until closed; counts what was acknowledged. */
    static final class SteadyProducer implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicLong acked = new AtomicLong();
        private final Thread thread;

        SteadyProducer(String bootstrap, String topic, List<Throwable> failures) {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
            thread = new Thread(() -> {
                try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                        new ByteArraySerializer())) {
                    for (int i = 0; !stop.get(); i++) {
                        producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null, new byte[8]),
                                (meta, e) -> {
                                    if (e == null) {
                                        acked.incrementAndGet();
                                    } else {
                                        failures.add(e);
                                    }
                                });
                        if (i % 50 == 0) {
                            Thread.sleep(5);
                        }
                    }
                    producer.flush();
                } catch (Throwable t) {
                    failures.add(t);
                }
            }, "steady-producer");
            thread.start();
        }

        long acked() {
            return acked.get();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(60_000);
        }
    }

    private static boolean isStable(String group) {
        try {
            return node.admin().describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group)
                    .groupState() == GroupState.STABLE;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void threeToSixToTwoMembersWhileProducingProcessEveryRecordOnce() throws Exception {
        String topic = "kip848-scale";
        String group = "kip848-scale-group";
        node.createTopic(topic, PARTITIONS, Map.of());
        Map<Long, AtomicInteger> processed = new ConcurrentHashMap<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Member> members = new ArrayList<>();
        try (SteadyProducer producer = new SteadyProducer(node.bootstrap(), topic, failures)) {
            for (int i = 0; i < 3; i++) {
                members.add(new Member(consumerProps(node.bootstrap(), group), topic, processed, failures));
            }
            awaitTrue(() -> members.stream().mapToInt(Member::assigned).sum() == PARTITIONS
                    && members.stream().allMatch(m -> m.assigned() == 4), "3 members own 4 partitions each");
            for (int i = 0; i < 3; i++) {
                members.add(new Member(consumerProps(node.bootstrap(), group), topic, processed, failures));
            }
            awaitTrue(() -> members.stream().allMatch(m -> m.assigned() == 2), "6 members own 2 partitions each");
            for (Member leaving : new ArrayList<>(members.subList(0, 4))) {
                leaving.close();
                members.remove(leaving);
            }
            awaitTrue(() -> members.stream().allMatch(m -> m.assigned() == 6), "2 members own 6 partitions each");
            awaitTrue(() -> isStable(group), "the group is stable");
            ConsumerGroupDescription described = node.admin().describeConsumerGroups(List.of(group)).all()
                    .get(30, TimeUnit.SECONDS).get(group);
            assertEquals(GroupType.CONSUMER, described.type());
            assertEquals(2, described.members().size());
            for (MemberDescription member : described.members()) {
                assertEquals(6, member.assignment().topicPartitions().size());
                assertEquals(described.targetAssignmentEpoch(), member.memberEpoch());
                assertEquals(member.assignment(), member.targetAssignment().orElseThrow());
            }
            awaitTrue(() -> producer.acked() > 2_000, "the producer made progress");
            producer.close();
            long produced = producer.acked();
            awaitTrue(() -> processed.size() >= produced, "every produced record processed");
            assertTrue(failures.isEmpty(), () -> "failures: " + failures);
            assertEquals(produced, processed.size(), "records processed");
            long twice = processed.values().stream().filter(c -> c.get() > 1).count();
            assertEquals(0, twice, "records processed more than once");
        } finally {
            for (Member member : members) {
                member.close();
            }
        }
    }
}
