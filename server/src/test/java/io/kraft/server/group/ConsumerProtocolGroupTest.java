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
import java.util.HashMap;
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
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Unmodified kafka-clients 4.4 consumers with {@code group.protocol=consumer} (KIP-848) against one in-process node:
 * server-side assignment and incremental reconciliation while the group grows and shrinks under a steady producer,
 * with manual commits, so every record is processed exactly once; and classic consumers of a group migrating to the
 * consumer protocol and back (KIP-848's online upgrade and downgrade).
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
        /** Commits refused because a classic member's generation had moved on (as applications do, it goes on). */
        private final AtomicInteger commitsFailed = new AtomicInteger();
        /** The next offset of each owned partition after what was processed (the consumer thread's only). */
        private final Map<TopicPartition, OffsetAndMetadata> processedUpTo = new HashMap<>();
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
                        // What was processed is committed before another member may take the partitions.
                        Map<TopicPartition, OffsetAndMetadata> done = new HashMap<>(processedUpTo);
                        done.keySet().retainAll(partitions);
                        if (!done.isEmpty()) {
                            try {
                                consumer.commitSync(done);
                            } catch (CommitFailedException e) {
                                commitsFailed.incrementAndGet(); // the next owner processes them again
                            }
                        }
                        processedUpTo.keySet().removeAll(partitions);
                        owned.removeAll(partitions);
                    }

                    @Override
                    public void onPartitionsLost(Collection<TopicPartition> partitions) {
                        processedUpTo.keySet().removeAll(partitions);
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
                        processedUpTo.put(new TopicPartition(record.topic(), record.partition()),
                                new OffsetAndMetadata(record.offset() + 1));
                    }
                    if (!records.isEmpty()) {
                        try {
                            consumer.commitSync(); // everything processed is committed before the next poll may revoke
                        } catch (RebalanceInProgressException e) {
                            // A classic member's rebalance is under way: what it gives up is committed on revocation,
                            // the rest after the next poll.
                        } catch (CommitFailedException e) {
                            commitsFailed.incrementAndGet(); // a classic member's generation moved on
                        }
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

        int commitsFailed() {
            return commitsFailed.get();
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

    /** Stops the producer and checks that each record it had acknowledged was processed exactly once. */
    private static void assertEveryRecordProcessedOnce(SteadyProducer producer, Map<Long, AtomicInteger> processed,
                                                       List<Throwable> failures) throws InterruptedException {
        producer.close();
        long produced = producer.acked();
        awaitTrue(() -> processed.size() >= produced, "every produced record processed");
        assertTrue(failures.isEmpty(), () -> "failures: " + failures);
        assertEquals(produced, processed.size(), "records processed");
        long twice = processed.values().stream().filter(c -> c.get() > 1).count();
        assertEquals(0, twice, "records processed more than once");
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
            assertEveryRecordProcessedOnce(producer, processed, failures);
        } finally {
            for (Member member : members) {
                member.close();
            }
        }
    }

    private static Properties classicProps(String group, String assignors) {
        Properties props = consumerProps(node.bootstrap(), group);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        if (!assignors.equals("default")) {
            props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, assignors);
        }
        return props;
    }

    private static GroupType typeOf(String group) {
        try {
            for (GroupListing listing : node.admin().listGroups().all().get(30, TimeUnit.SECONDS)) {
                if (listing.groupId().equals(group)) {
                    return listing.type().orElse(GroupType.UNKNOWN);
                }
            }
            return GroupType.UNKNOWN;
        } catch (Exception e) {
            return GroupType.UNKNOWN;
        }
    }

    /**
     * KIP-848's online migration: two classic consumers (the default assignors, whose eager protocol revokes
     * everything before a rejoin, or cooperative-sticky alone) consume under the producer; a consumer-protocol member
     * joins, which upgrades the group, and all three get partitions; it leaves, the group goes back to the classic
     * protocol, and the two consume on. Every record is processed exactly once.
     */
    @ParameterizedTest
    @ValueSource(strings = {"default", "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"})
    void aConsumerProtocolMemberUpgradesAClassicGroupUnderLoadAndItsLeavingDowngradesIt(String assignors)
            throws Exception {
        String topic = "migration-" + assignors.length();
        String group = "migration-group-" + assignors.length();
        node.createTopic(topic, PARTITIONS, Map.of());
        Map<Long, AtomicInteger> processed = new ConcurrentHashMap<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Member> classic = new ArrayList<>();
        try (SteadyProducer producer = new SteadyProducer(node.bootstrap(), topic, failures)) {
            classic.add(new Member(classicProps(group, assignors), topic, processed, failures));
            classic.add(new Member(classicProps(group, assignors), topic, processed, failures));
            awaitTrue(() -> classic.stream().allMatch(m -> m.assigned() == PARTITIONS / 2),
                    "2 classic members own 6 partitions each");
            assertEquals(GroupType.CLASSIC, typeOf(group));

            long beforeUpgrade = producer.acked();
            try (Member upgrading = new Member(consumerProps(node.bootstrap(), group),
                    topic, processed, failures)) {
                awaitTrue(() -> upgrading.assigned() > 0 && classic.stream().allMatch(m -> m.assigned() > 0)
                        && upgrading.assigned() + classic.stream().mapToInt(Member::assigned).sum() == PARTITIONS,
                        "the three members share the partitions");
                assertEquals(GroupType.CONSUMER, typeOf(group));
                awaitTrue(() -> producer.acked() > beforeUpgrade + 1_000, "the producer made progress");
                assertTrue(failures.isEmpty(), () -> "failures: " + failures);
            }
            assertEquals(0, processed.values().stream().filter(c -> c.get() > 1).count(),
                    "records processed more than once while the group was upgraded and served");
            assertEquals(0, classic.stream().mapToInt(Member::commitsFailed).sum(), "commits refused");
            awaitTrue(() -> typeOf(group) == GroupType.CLASSIC, "the group went back to the classic protocol");
            awaitTrue(() -> classic.stream().allMatch(m -> m.assigned() == PARTITIONS / 2),
                    "the 2 classic members own 6 partitions each again");
            long afterDowngrade = producer.acked();
            awaitTrue(() -> producer.acked() > afterDowngrade + 1_000, "the producer made progress");
            // A member behind the downgraded group's generation still commits at its own epoch until the rebalance
            // ends, so nothing it processed is processed again.
            assertEveryRecordProcessedOnce(producer, processed, failures);
        } finally {
            for (Member member : classic) {
                member.close();
            }
        }
    }

    /**
     * A static classic consumer ({@code group.instance.id}) in a consumer group restarts: the new instance takes the
     * old one's place and partitions without a new target assignment (KIP-345), where it used to be fenced
     * (FENCED_INSTANCE_ID, fatal to the client) until the old session ended.
     */
    @Test
    void aStaticClassicConsumerRestartingInsideAConsumerGroupGetsItsPartitionsBack() throws Exception {
        String topic = "static-restart";
        String group = "static-restart-group";
        node.createTopic(topic, PARTITIONS, Map.of());
        Map<Long, AtomicInteger> processed = new ConcurrentHashMap<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Properties staticProps = classicProps(group, "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
        staticProps.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "static-1");
        try (Member modern = new Member(consumerProps(node.bootstrap(), group), topic, processed, failures)) {
            awaitTrue(() -> modern.assigned() == PARTITIONS, "the consumer-protocol member owns every partition");
            Member first = new Member(staticProps, topic, processed, failures);
            awaitTrue(() -> first.assigned() > 0 && first.assigned() + modern.assigned() == PARTITIONS
                    && isStable(group), "the static classic member shares the partitions");
            int owned = first.assigned();
            Object epoch = describe(group).targetAssignmentEpoch();
            first.close(); // a static member does not leave when it closes: its partitions wait for it
            try (Member restarted = new Member(staticProps, topic, processed, failures)) {
                awaitTrue(() -> restarted.assigned() == owned, "the restarted instance has its partitions back");
                assertTrue(failures.isEmpty(), () -> "failures: " + failures);
                ConsumerGroupDescription described = describe(group);
                assertEquals(2, described.members().size());
                assertEquals(epoch, described.targetAssignmentEpoch(), "no new assignment");
            }
        }
    }

    private static ConsumerGroupDescription describe(String group) throws Exception {
        return node.admin().describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group);
    }
}
