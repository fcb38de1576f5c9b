package io.kraft.systest;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumer groups with real processes: a member killed with kill -9 loses its partitions after its session
 * timeout and the survivor resumes them from the committed offsets; committed offsets and group state survive
 * kill -9 of the node, replayed from {@code __consumer_offsets}.
 */
class ConsumerGroupProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long ADMIN_WAIT_MS = 30_000;
    private static final String TOPIC = "work";
    private static final int PARTITIONS = 4;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private NodeConfigFile node;
    private Path config;

    private void formatNode() {
        node = NodeConfigFile.combined(1, dataDir.resolve("node-1"))
                .with("group.initial.rebalance.delay.ms", "0")
                .with("offsets.topic.num.partitions", "3");
        config = node.write();
        JvmProcess format = processes.run(JvmSpec.kraftCli("format",
                "format", "-c", config.toString(), "-t", MetaProperties.randomUuid()), WAIT);
        assertEquals(0, format.waitForExit(WAIT), format.describeLogs());
    }

    private JvmProcess startNode(String name) {
        JvmProcess process = processes.start(JvmSpec.kraftCli(name, "start", "--config", config.toString()));
        process.waitForLogLine("kraft node 1 ready", WAIT);
        process.waitForLogLine("Broker 1 is unfenced", WAIT);
        return process;
    }

    private String bootstrap() {
        return "127.0.0.1:" + node.brokerPort();
    }

    private Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
    }

    private void produce(int from, int count) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null,
                        Integer.toString(i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin, String group) throws Exception {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
    }

    private static long committedTotal(Admin admin, String group) throws Exception {
        return committed(admin, group).values().stream().mapToLong(OffsetAndMetadata::offset).sum();
    }

    /** The partitions of the member's latest "assigned" line. */
    private static Set<Integer> lastAssignment(JvmProcess member) {
        Set<Integer> assigned = new TreeSet<>();
        String last = null;
        for (String line : member.stdout().split("\n")) {
            if (line.startsWith("assigned ")) {
                last = line.substring("assigned ".length()).trim();
            }
        }
        if (last != null) {
            for (String partition : last.split(",")) {
                if (!partition.isEmpty()) {
                    assigned.add(Integer.parseInt(partition));
                }
            }
        }
        return assigned;
    }

    /** Every "position p offset" line of the member, in order. */
    private static List<long[]> positions(JvmProcess member) {
        List<long[]> positions = new ArrayList<>();
        for (String line : member.stdout().split("\n")) {
            if (line.startsWith("position ")) {
                String[] parts = line.trim().split(" ");
                positions.add(new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2])});
            }
        }
        return positions;
    }

    private JvmProcess member(String name, String group) {
        return processes.start(JvmSpec.testMain(name, GroupMemberMain.class, bootstrap(), TOPIC, group, "6000"));
    }

    @Test
    void aKilledMemberLosesItsPartitionsAfterItsSessionAndTheSurvivorResumesFromTheCommittedOffsets()
            throws Exception {
        formatNode();
        startNode("node");
        String group = "killed-member";
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all()
                    .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            produce(0, 400);
            JvmProcess survivor = member("member-a", group);
            await().atMost(WAIT).ignoreExceptions().until(() -> committedTotal(admin, group) == 400);
            JvmProcess victim = member("member-b", group);
            await().atMost(WAIT).until(() -> !lastAssignment(victim).isEmpty()
                    && lastAssignment(survivor).size() + lastAssignment(victim).size() == PARTITIONS);
            produce(400, 400);
            await().atMost(WAIT).ignoreExceptions().until(() -> committedTotal(admin, group) == 800);
            Set<Integer> victimPartitions = lastAssignment(victim);
            int survivorPositionsBefore = positions(survivor).size();

            victim.kill(WAIT);
            Map<TopicPartition, OffsetAndMetadata> atKill = committed(admin, group);
            produce(800, 400);
            await().atMost(WAIT).until(() -> lastAssignment(survivor).size() == PARTITIONS);
            await().atMost(WAIT).ignoreExceptions().until(() -> committedTotal(admin, group) == 1_200);

            Map<Integer, Long> resumedAt = new HashMap<>();
            List<long[]> positions = positions(survivor);
            for (long[] position : positions.subList(survivorPositionsBefore, positions.size())) {
                resumedAt.put((int) position[0], position[1]);
            }
            for (int partition : victimPartitions) {
                assertEquals(atKill.get(new TopicPartition(TOPIC, partition)).offset(), resumedAt.get(partition),
                        "partition " + partition + " resumes at the killed member's last commit\n"
                                + survivor.describeLogs());
            }
            assertEquals(GroupState.STABLE, admin.describeConsumerGroups(List.of(group)).describedGroups()
                    .get(group).get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).groupState());
            assertEquals(1, admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
                    .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).members().size(), "only the survivor is left");
        }
    }

    @Test
    void committedOffsetsAndGroupStateSurviveKillNineOfTheNode() throws Exception {
        formatNode();
        JvmProcess first = startNode("node-1");
        String group = "durable";
        Map<TopicPartition, OffsetAndMetadata> before;
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all()
                    .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            produce(0, 40);
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.subscribe(List.of(TOPIC));
                int consumed = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (consumed < 40 && System.nanoTime() < deadline) {
                    consumed += consumer.poll(Duration.ofMillis(100)).count();
                }
                assertEquals(40, consumed);
                consumer.commitSync();
                consumer.commitSync(Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(3, "three")));
            }
            before = committed(admin, group);
            assertEquals(33, before.values().stream().mapToLong(OffsetAndMetadata::offset).sum());
        }
        first.kill(WAIT);

        startNode("node-2");
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetAndMetadata> after = await().atMost(WAIT).ignoreExceptions()
                    .until(() -> committed(admin, group), offsets -> !offsets.isEmpty());
            assertEquals(before, after);
            assertEquals("three", after.get(new TopicPartition(TOPIC, 0)).metadata());
            assertEquals(GroupState.EMPTY, admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
                    .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).groupState());
            assertFalse(admin.listGroups().all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).isEmpty());
            assertTrue(admin.listGroups().all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).stream()
                    .anyMatch(listed -> listed.groupId().equals(group)));
        }
    }
}
