package io.kraft.server.group;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.server.TestNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.OffsetMetadataTooLarge;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Unmodified kafka-clients consumers in groups against one in-process combined node: every assignor through a
 * rebalance without loss, auto and manual commits, offset reset policies, seeks, static membership, and committed
 * state across a restart. The record count of the assignor runs is {@code -Dkraft.groups.records} (60,000).
 */
class ConsumerGroupEndToEndTest {
    /** 60,000 keeps the suite fast; -Dkraft.groups.records=120000 runs the full scale. */
    private static final int RECORDS = Integer.getInteger("kraft.groups.records", 60_000);
    private static final int PARTITIONS = 12;
    private static final Duration POLL = Duration.ofMillis(100);
    private static final long PROCESSING_MS = 2;

    @TempDir
    static Path dir;
    private static TestNode node;

    @BeforeAll
    static void startNode() throws Exception {
        node = GroupTests.node(dir).start();
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private static void createTopic(String topic, int partitions) throws Exception {
        node.admin().createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    /** Record i goes to partition i % partitions with value "i"; the timestamp is {@code timestampMs} if >= 0. */
    private static void produce(String topic, int partitions, int from, int count, long timestampMs) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "65536");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, timestampMs >= 0 ? timestampMs : null,
                        null, Integer.toString(i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    private static Properties consumerProps(String group, Map<String, Object> overrides) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        if (group != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.putAll(overrides);
        return props;
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String group, Map<String, Object> overrides) {
        return new KafkaConsumer<>(consumerProps(group, overrides));
    }

    private static Map<TopicPartition, Long> endOffsets(String topic, int partitions) {
        try (KafkaConsumer<byte[], byte[]> probe = consumer(null, Map.of())) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
            return probe.endOffsets(all);
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        return node.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
    }

    private static long committedTotal(String group) {
        try {
            return committed(group).values().stream().mapToLong(OffsetAndMetadata::offset).sum();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Like awaitTrue, but a timeout says what {@code state} was then, so a rare hang can be told from slowness. */
    private static void awaitOrExplain(BooleanSupplier condition, String what, Supplier<String> state) {
        try {
            awaitTrue(condition, what);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + " did not happen in time; then: " + state.get(), e);
        }
    }

    /** The group's committed offsets beside the partitions' ends, its state and members' assignments. */
    private static String groupProgress(String group, String topic, List<Member> members) {
        StringBuilder out = new StringBuilder();
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = committed(group);
            Map<TopicPartition, Long> ends = endOffsets(topic, PARTITIONS);
            out.append("committed/end:");
            for (int p = 0; p < PARTITIONS; p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                OffsetAndMetadata at = committed.get(tp);
                out.append(' ').append(p).append('=').append(at == null ? "-" : at.offset())
                        .append('/').append(ends.get(tp));
            }
            ConsumerGroupDescription description = describe(group);
            out.append("; group ").append(description.groupState()).append(", ")
                    .append(description.members().size()).append(" members");
        } catch (Exception e) {
            out.append("; (could not read the group: ").append(e).append(')');
        }
        out.append("; members ").append(members);
        return out.toString();
    }

    private static ConsumerGroupDescription describe(String group) throws Exception {
        return node.admin().describeConsumerGroups(List.of(group)).describedGroups().get(group)
                .get(30, TimeUnit.SECONDS);
    }

    private static List<Integer> values(ConsumerRecords<byte[], byte[]> records) {
        List<Integer> values = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            values.add(Integer.parseInt(new String(record.value(), StandardCharsets.UTF_8)));
        }
        return values;
    }

    /** Polls until {@code count} records arrived or the wait ends. */
    private static List<Integer> pollValues(KafkaConsumer<byte[], byte[]> consumer, int count) {
        List<Integer> values = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (values.size() < count && System.nanoTime() < deadline) {
            values.addAll(values(consumer.poll(POLL)));
        }
        return values;
    }

    // ---- assignors ---------------------------------------------------------------------------------------------

    /** A group member on its own thread: processes, then commits synchronously (also before giving partitions up). */
    private static final class Member implements Runnable, AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final String topic;
        private final Map<Long, AtomicInteger> processed;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicInteger maxAssigned = new AtomicInteger();
        /** The partitions this member holds, as its rebalance listener last heard. */
        private final Set<Integer> owned = ConcurrentHashMap.newKeySet();
        private final LongAdder processedHere = new LongAdder();
        private final LongAdder rebalanceRetries = new LongAdder();
        private final List<Throwable> failures;
        private final Thread thread;

        Member(String group, String topic, String assignor, Map<Long, AtomicInteger> processed,
               List<Throwable> failures) {
            this.consumer = consumer(group, Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, assignor,
                    ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500"));
            this.topic = topic;
            this.processed = processed;
            this.failures = failures;
            this.thread = new Thread(this, "member-" + group);
            thread.start();
        }

        @Override
        public void run() {
            try {
                consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                    @Override
                    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                        commitProcessed();
                        partitions.forEach(tp -> owned.remove(tp.partition()));
                    }

                    @Override
                    public void onPartitionsLost(Collection<TopicPartition> partitions) {
                        // Lost partitions belong to others already: nothing may be committed for them.
                        partitions.forEach(tp -> owned.remove(tp.partition()));
                    }

                    @Override
                    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                        partitions.forEach(tp -> owned.add(tp.partition()));
                        maxAssigned.accumulateAndGet(consumer.assignment().size(), Math::max);
                    }
                });
                while (!stop.get()) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                    for (ConsumerRecord<byte[], byte[]> record : records) {
                        long key = ((long) record.partition() << 40) | record.offset();
                        processed.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                    }
                    processedHere.add(records.count());
                    if (!records.isEmpty()) {
                        Thread.sleep(PROCESSING_MS); // the application's work, so a newcomer joins mid-stream
                        commitProcessed();
                    }
                }
            } catch (Throwable t) {
                failures.add(t);
            } finally {
                consumer.close(Duration.ofSeconds(10));
            }
        }

        /** Commits the position; during a rebalance the next poll completes it and revocation commits again. */
        private void commitProcessed() {
            try {
                consumer.commitSync();
            } catch (RebalanceInProgressException e) {
                rebalanceRetries.increment();
            }
        }

        int maxAssigned() {
            return maxAssigned.get();
        }

        long processedHere() {
            return processedHere.sum();
        }

        @Override
        public String toString() {
            return "{owns " + new TreeSet<>(owned) + ", processed " + processedHere.sum()
                    + ", commits refused by a rebalance " + rebalanceRetries.sum()
                    + (thread.isAlive() ? "" : ", thread ended") + "}";
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(30_000);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"range", "roundrobin", "sticky", "cooperative-sticky"})
    void everyRecordIsProcessedOnceByTheGroupThroughARebalance(String assignor) throws Exception {
        String assignorClass = switch (assignor) {
            case "range" -> RangeAssignor.class.getName();
            case "roundrobin" -> RoundRobinAssignor.class.getName();
            case "sticky" -> StickyAssignor.class.getName();
            default -> CooperativeStickyAssignor.class.getName();
        };
        String topic = "events-" + assignor;
        String group = "group-" + assignor;
        createTopic(topic, PARTITIONS);
        produce(topic, PARTITIONS, 0, RECORDS / 2, -1);
        Map<Long, AtomicInteger> processed = new ConcurrentHashMap<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Member> members = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                members.add(new Member(group, topic, assignorClass, processed, failures));
            }
            awaitTrue(() -> processed.size() >= RECORDS / 4 || !failures.isEmpty(),
                    "a quarter of the records to be processed");
            Member fourth = new Member(group, topic, assignorClass, processed, failures);
            members.add(fourth);
            awaitTrue(() -> fourth.maxAssigned() > 0 || !failures.isEmpty(),
                    "the fourth member to get partitions");
            produce(topic, PARTITIONS, RECORDS / 2, RECORDS - RECORDS / 2, -1);
            awaitOrExplain(() -> (processed.size() >= RECORDS && committedTotal(group) >= RECORDS)
                    || !failures.isEmpty(), "every record processed and committed",
                    () -> "processed " + processed.size() + " of " + RECORDS + "; "
                            + groupProgress(group, topic, members));
            assertTrue(failures.isEmpty(), () -> "a member failed: " + failures);
            assertTrue(fourth.processedHere() > 0, "the fourth member processed records of its partitions");
        } finally {
            for (Member member : members) {
                member.close();
            }
        }
        long duplicates = processed.values().stream().filter(count -> count.get() > 1).count();
        assertEquals(RECORDS, processed.size(), "no record lost");
        assertEquals(0, duplicates, "no record processed twice: commits before revocation cover what was processed");
        Map<TopicPartition, Long> ends = endOffsets(topic, PARTITIONS);
        Map<TopicPartition, OffsetAndMetadata> committed = committed(group);
        ends.forEach((partition, end) -> assertEquals(end, committed.get(partition).offset(), partition.toString()));
        awaitTrue(() -> {
            try {
                return describe(group).groupState() == GroupState.EMPTY;
            } catch (Exception e) {
                return false;
            }
        }, "the group to be empty once every member left");
    }

    // ---- commits ---------------------------------------------------------------------------------------------

    @Test
    void autoCommitCommitsWhatWasConsumedAndWithoutCommitsAGroupStartsOver() throws Exception {
        createTopic("auto", 2);
        produce("auto", 2, 0, 100, -1);
        try (KafkaConsumer<byte[], byte[]> auto = consumer("auto-on", Map.of(
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true", ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, "100"))) {
            auto.subscribe(List.of("auto"));
            assertEquals(100, pollValues(auto, 100).size());
        }
        assertEquals(100, committedTotal("auto-on"), "close commits the consumed offsets when auto-commit is on");

        try (KafkaConsumer<byte[], byte[]> manual = consumer("auto-off", Map.of())) {
            manual.subscribe(List.of("auto"));
            assertEquals(100, pollValues(manual, 100).size());
        }
        assertTrue(committed("auto-off").isEmpty(), "nothing is committed without a commit");
        try (KafkaConsumer<byte[], byte[]> again = consumer("auto-off", Map.of())) {
            again.subscribe(List.of("auto"));
            assertEquals(100, pollValues(again, 100).size(), "the group starts over from the earliest offset");
        }
    }

    @Test
    void commitAsyncReportsToItsCallback() throws Exception {
        createTopic("async", 1);
        produce("async", 1, 0, 10, -1);
        AtomicReference<Map<TopicPartition, OffsetAndMetadata>> reported = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("async-group", Map.of())) {
            consumer.subscribe(List.of("async"));
            assertEquals(10, pollValues(consumer, 10).size());
            consumer.commitAsync((offsets, exception) -> {
                reported.set(offsets);
                failure.set(exception);
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (reported.get() == null && System.nanoTime() < deadline) {
                consumer.poll(POLL);
            }
        }
        assertNull(failure.get());
        assertEquals(10, reported.get().get(new TopicPartition("async", 0)).offset());
        assertEquals(10, committed("async-group").get(new TopicPartition("async", 0)).offset());
    }

    @Test
    void oversizeCommitMetadataIsRefusedAndNothingIsCommitted() throws Exception {
        createTopic("meta", 1);
        TopicPartition partition = new TopicPartition("meta", 0);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("meta-group", Map.of())) {
            consumer.assign(List.of(partition));
            assertThrows(OffsetMetadataTooLarge.class, () -> consumer.commitSync(
                    Map.of(partition, new OffsetAndMetadata(1, "x".repeat(4_097)))));
            consumer.commitSync(Map.of(partition, new OffsetAndMetadata(1, "x".repeat(4_096))));
        }
        assertEquals("x".repeat(4_096), committed("meta-group").get(partition).metadata());
    }

    // ---- positions -------------------------------------------------------------------------------------------

    @Test
    void offsetResetEarliestLatestAndNone() throws Exception {
        createTopic("reset", 1);
        produce("reset", 1, 0, 5, -1);
        try (KafkaConsumer<byte[], byte[]> earliest = consumer("reset-earliest", Map.of())) {
            earliest.subscribe(List.of("reset"));
            assertEquals(List.of(0, 1, 2, 3, 4), pollValues(earliest, 5));
        }
        try (KafkaConsumer<byte[], byte[]> latest = consumer("reset-latest",
                Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest"))) {
            latest.subscribe(List.of("reset"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (latest.assignment().isEmpty() && System.nanoTime() < deadline) {
                assertTrue(latest.poll(POLL).isEmpty(), "latest skips what is already there");
            }
            latest.position(new TopicPartition("reset", 0));
            produce("reset", 1, 5, 2, -1);
            assertEquals(List.of(5, 6), pollValues(latest, 2));
        }
        try (KafkaConsumer<byte[], byte[]> none = consumer("reset-none",
                Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none"))) {
            none.subscribe(List.of("reset"));
            assertThrows(NoOffsetForPartitionException.class, () -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (System.nanoTime() < deadline) {
                    none.poll(POLL);
                }
            });
        }
    }

    @Test
    void seekToAnOffsetAndToATimestamp() throws Exception {
        createTopic("seek", 1);
        TopicPartition partition = new TopicPartition("seek", 0);
        produce("seek", 1, 0, 10, 1_000_000L);
        produce("seek", 1, 10, 10, 2_000_000L);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("seek-group", Map.of())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, 7);
            assertEquals(7, pollValues(consumer, 1).get(0));
            Map<TopicPartition, OffsetAndTimestamp> byTime = consumer.offsetsForTimes(Map.of(partition, 1_500_000L));
            assertEquals(10, byTime.get(partition).offset());
            consumer.seek(partition, byTime.get(partition).offset());
            assertEquals(10, pollValues(consumer, 1).get(0));
            consumer.commitSync();
        }
        assertEquals(20, committed("seek-group").get(partition).offset(), "the position after the last poll");
    }

    // ---- static membership -----------------------------------------------------------------------------------

    @Test
    void aStaticMemberRestartingWithinItsSessionTimeoutCausesNoRebalance() throws Exception {
        createTopic("static", 4);
        String group = "static-group";
        AtomicInteger stayingAssignments = new AtomicInteger();
        Map<String, Object> staying = Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "staying",
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "30000");
        Map<String, Object> restarting = Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "restarting",
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "30000");
        try (KafkaConsumer<byte[], byte[]> stay = consumer(group, staying)) {
            stay.subscribe(List.of("static"), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    stayingAssignments.incrementAndGet();
                }
            });
            Set<TopicPartition> firstAssignment;
            try (KafkaConsumer<byte[], byte[]> restart = consumer(group, restarting)) {
                restart.subscribe(List.of("static"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while ((restart.assignment().size() + stay.assignment().size() != 4 || restart.assignment().isEmpty()
                        || stay.assignment().isEmpty()) && System.nanoTime() < deadline) {
                    restart.poll(POLL);
                    stay.poll(POLL);
                }
                firstAssignment = new HashSet<>(restart.assignment());
                assertFalse(firstAssignment.isEmpty());
            }
            int assignmentsBefore = stayingAssignments.get();
            Set<String> membersBefore = memberIds(group);
            try (KafkaConsumer<byte[], byte[]> restarted = consumer(group, restarting)) {
                restarted.subscribe(List.of("static"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (restarted.assignment().isEmpty() && System.nanoTime() < deadline) {
                    restarted.poll(POLL);
                    stay.poll(POLL);
                }
                for (int i = 0; i < 10; i++) {
                    restarted.poll(POLL);
                    stay.poll(POLL);
                }
                assertEquals(firstAssignment, restarted.assignment(), "the restarted member gets its partitions back");
                assertEquals(assignmentsBefore, stayingAssignments.get(), "the other member saw no rebalance");
                assertEquals(GroupState.STABLE, describe(group).groupState());
                Set<String> membersAfter = memberIds(group);
                assertEquals(2, membersAfter.size());
                assertFalse(membersAfter.equals(membersBefore), "the restarted member has a new member id");
            }
        }
    }

    private static Set<String> memberIds(String group) throws Exception {
        Set<String> ids = new HashSet<>();
        describe(group).members().forEach(m -> ids.add(m.consumerId()));
        return ids;
    }

    // ---- durability ------------------------------------------------------------------------------------------

    @Test
    void committedOffsetsAndGroupStateSurviveACleanRestart() throws Exception {
        createTopic("durable", 3);
        produce("durable", 3, 0, 30, -1);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("durable-group", Map.of())) {
            consumer.subscribe(List.of("durable"));
            assertEquals(30, pollValues(consumer, 30).size());
            consumer.commitSync(Map.of(new TopicPartition("durable", 0), new OffsetAndMetadata(7, "seven")));
        }
        Map<TopicPartition, OffsetAndMetadata> before = committed("durable-group");
        node.restart();
        Map<TopicPartition, OffsetAndMetadata> after = new HashMap<>();
        awaitTrue(() -> {
            try {
                after.putAll(committed("durable-group"));
                return true;
            } catch (Exception e) {
                return false;
            }
        }, "the group's offsets after the restart");
        assertEquals(before, after);
        assertEquals("seven", after.get(new TopicPartition("durable", 0)).metadata());
        assertEquals(GroupState.EMPTY, describe("durable-group").groupState());
        assertTrue(node.admin().listGroups().all().get(30, TimeUnit.SECONDS).stream()
                .anyMatch(g -> g.groupId().equals("durable-group")));
        try (KafkaConsumer<byte[], byte[]> resumed = consumer("durable-group", Map.of())) {
            resumed.subscribe(List.of("durable"));
            List<Integer> values = pollValues(resumed, 30 - 7 - 10 - 10 + 20);
            assertTrue(values.contains(21) || values.contains(0), "partition 0 resumes at offset 7");
            assertFalse(values.contains(18), "records of partition 0 before offset 7 are not read again");
        }
    }
}
