package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kraft-cli groups} against an in-process node, checked with kafka-clients: lag as the test computes it,
 * resets a consumer then resumes from, deletes, listings, and one-line errors.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GroupsCommandTest {
    private static final String TOPIC = "events";
    private static final int PARTITIONS = 3;
    private static final int RECORDS_PER_PARTITION = 30;
    private static final long WAIT_MS = 20_000;
    private static final DateTimeFormatter UTC_DATETIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** Record i of every partition has timestamp firstTimestampMs + i seconds. */
    private long firstTimestampMs;
    private ClientNode node;
    private Admin admin;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        node = new ClientNode(dir);
        admin = Admin.create(Map.of("bootstrap.servers", node.bootstrap()));
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
        firstTimestampMs = (System.currentTimeMillis() - TimeUnit.MINUTES.toMillis(10)) / 1000 * 1000;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new StringSerializer())) {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                for (int i = 0; i < RECORDS_PER_PARTITION; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, partition, firstTimestampMs + i * 1000L, "k" + i,
                            "p" + partition + "-" + i));
                }
            }
            producer.flush();
        }
    }

    @AfterAll
    void stop() {
        if (admin != null) {
            admin.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void describeShowsTheLagOfWhatAMemberCommittedAndRefusesChangesWhileItIsActive() throws Exception {
        String group = "lagging";
        Map<TopicPartition, Long> committed;
        try (KafkaConsumer<String, String> consumer = consumer(group)) {
            consumer.subscribe(List.of(TOPIC));
            // Process some records of each partition (5 per poll), then commit what was processed.
            Map<TopicPartition, Long> processed = new HashMap<>();
            int seen = 0;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (seen < 40 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    processed.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
                    seen++;
                }
            }
            assertTrue(seen >= 40, "consumed " + seen + " records");
            Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
            processed.forEach((partition, offset) -> commits.put(partition, new OffsetAndMetadata(offset)));
            consumer.commitSync(commits);
            committed = processed;
            String memberId = consumer.groupMetadata().memberId();

            List<List<String>> rows = table(succeeds(groups("--describe", "--group", group)).out());
            assertEquals(List.of("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                    "CONSUMER-ID", "HOST", "CLIENT-ID"), rows.get(0));
            assertEquals(PARTITIONS, rows.size() - 1, rows.toString());
            for (int partition = 0; partition < PARTITIONS; partition++) {
                List<String> row = rows.get(partition + 1);
                Long offset = committed.get(new TopicPartition(TOPIC, partition));
                assertEquals(List.of(group, TOPIC, Integer.toString(partition)), row.subList(0, 3));
                assertEquals(offset == null ? "-" : offset.toString(), row.get(3));
                assertEquals(Integer.toString(RECORDS_PER_PARTITION), row.get(4));
                assertEquals(offset == null ? "-" : Long.toString(RECORDS_PER_PARTITION - offset), row.get(5));
                assertEquals(memberId, row.get(6));
                assertEquals("lagging-client", row.get(8));
            }

            List<List<String>> members = table(succeeds(groups("--describe", "--group", group, "--members",
                    "--verbose")).out());
            assertEquals(List.of("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT"),
                    members.get(0));
            assertEquals(List.of(group, memberId), members.get(1).subList(0, 2));
            assertEquals(List.of("lagging-client", "3", "events(0,1,2)"), members.get(1).subList(3, 6));

            String state = succeeds(groups("--describe", "--group", group, "--state")).out();
            assertTrue(state.startsWith("GROUP "), state);
            assertTrue(state.lines().skip(1).findFirst().orElseThrow()
                    .matches("lagging +localhost:" + node.bootstrap().split(":")[1] + " \\(1\\) +range +Stable +1"),
                    state);

            CliRun refused = groups("--reset-offsets", "--group", group, "--topic", TOPIC, "--to-earliest",
                    "--execute");
            assertOneLineError(refused, KraftCli.EXIT_FAILURE, "Consumer group 'lagging' is active (state Stable");
            CliRun notDeleted = groups("--delete", "--group", group);
            assertOneLineError(notDeleted, KraftCli.EXIT_FAILURE,
                    "Consumer group 'lagging' could not be deleted: it is not empty");
        }
        assertEquals(committed, committedOffsets(group), "the refused reset changed nothing");

        CliRun afterClose = succeeds(groups("--describe", "--group", group));
        assertEquals("Consumer group 'lagging' has no active members.", afterClose.out().lines().findFirst().get());
        List<List<String>> rows = table(afterClose.out().lines().skip(1).toList());
        for (List<String> row : rows.subList(1, rows.size())) {
            assertEquals(List.of("-", "-", "-"), row.subList(6, 9), "no owner once the member left: " + row);
        }
        assertTrue(groups("--describe", "--group", group, "--state").out().contains(" Empty "));
    }

    @Test
    void resetToEarliestMovesTheGroupAndAConsumerResumesThere() throws Exception {
        String group = "rewind";
        commit(group, Map.of(0, 20L, 1, 25L, 2, 30L));

        CliRun reset = succeeds(groups("--reset-offsets", "--group", group, "--topic", TOPIC, "--to-earliest",
                "--execute"));
        assertEquals(List.of(
                "GROUP  TOPIC  PARTITION NEW-OFFSET",
                "rewind events 0         0",
                "rewind events 1         0",
                "rewind events 2         0"), reset.out().lines().toList());
        assertEquals(offsets(0L, 0L, 0L), committedOffsets(group));

        Map<Integer, Long> firstOffsets = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = consumer(group, "none")) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (firstOffsets.size() < PARTITIONS && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    firstOffsets.putIfAbsent(record.partition(), record.offset());
                }
            }
        }
        assertEquals(Map.of(0, 0L, 1, 0L, 2, 0L), firstOffsets);
    }

    @Test
    void dryRunIsTheDefaultAndChangesNothing() throws Exception {
        String group = "cautious";
        commit(group, Map.of(0, 3L, 1, 4L, 2, 5L));
        CliRun implicit = succeeds(groups("--reset-offsets", "--group", group, "--all-topics", "--to-latest"));
        CliRun explicit = succeeds(groups("--reset-offsets", "--group", group, "--all-topics", "--to-latest",
                "--dry-run"));
        assertEquals(implicit.out(), explicit.out());
        assertEquals(List.of("GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"), table(explicit.out()).get(0));
        for (List<String> row : table(explicit.out()).subList(1, PARTITIONS + 1)) {
            assertEquals("30", row.get(3), row.toString());
        }
        assertEquals(offsets(3L, 4L, 5L), committedOffsets(group));
    }

    @Test
    void toOffsetOnChosenPartitionsIsClampedToTheLog() throws Exception {
        String group = "chosen";
        commit(group, Map.of(0, 1L, 1, 2L, 2, 3L));
        succeeds(groups("--reset-offsets", "--group", group, "--topic", TOPIC + ":0,2", "--to-offset", "7",
                "--execute"));
        assertEquals(offsets(7L, 2L, 7L), committedOffsets(group));
        CliRun clamped = succeeds(groups("--reset-offsets", "--group", group, "--topic", TOPIC + ":1",
                "--to-offset", "1000", "--execute"));
        assertEquals(List.of(group, TOPIC, "1", "30"), table(clamped.out()).get(1));
        assertEquals(offsets(7L, 30L, 7L), committedOffsets(group));

        assertOneLineError(groups("--reset-offsets", "--group", group, "--topic", TOPIC + ":3", "--to-offset", "0"),
                KraftCli.EXIT_FAILURE, "Topic 'events' has no partition 3 (it has 3)");
        assertOneLineError(groups("--reset-offsets", "--group", group, "--topic", "missing", "--to-offset", "0"),
                KraftCli.EXIT_FAILURE, "Topic 'missing' does not exist");
    }

    @Test
    void shiftByMovesEachCommittedOffset() throws Exception {
        String group = "shifted";
        commit(group, Map.of(0, 10L, 1, 2L, 2, 29L));
        succeeds(groups("--reset-offsets", "--group", group, "--all-topics", "--shift-by", "-3", "--execute"));
        assertEquals(offsets(7L, 0L, 26L), committedOffsets(group));
        succeeds(groups("--reset-offsets", "--group", group, "--topic", TOPIC, "--shift-by", "5", "--execute"));
        assertEquals(offsets(12L, 5L, 30L), committedOffsets(group));

        String partial = "partly-committed";
        commit(partial, Map.of(0, 10L));
        CliRun noOffset = groups("--reset-offsets", "--group", partial, "--topic", TOPIC, "--shift-by", "1",
                "--execute");
        assertOneLineError(noOffset, KraftCli.EXIT_FAILURE, "Cannot shift the offset of events-1");
        assertEquals(Map.of(new TopicPartition(TOPIC, 0), 10L), committedOffsets(partial), "nothing committed");
    }

    @Test
    void toDatetimeFindsTheFirstRecordAtOrAfterTheTime() throws Exception {
        String group = "timely";
        commit(group, Map.of(0, 0L, 1, 0L, 2, 0L));
        // Record 13 is the first at or after 12.5 s past the first record.
        String midway = UTC_DATETIME.format(Instant.ofEpochMilli(firstTimestampMs + 12_500));
        succeeds(groups("--reset-offsets", "--group", group, "--all-topics", "--to-datetime", midway, "--execute"));
        assertEquals(offsets(13L, 13L, 13L), committedOffsets(group));

        String sameTimeInAnotherZone = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
                .withZone(ZoneOffset.ofHoursMinutes(5, 30)).format(Instant.ofEpochMilli(firstTimestampMs + 4_000));
        succeeds(groups("--reset-offsets", "--group", group, "--topic", TOPIC + ":1", "--to-datetime",
                sameTimeInAnotherZone, "--execute"));
        assertEquals(offsets(13L, 4L, 13L), committedOffsets(group));

        String afterEverything = UTC_DATETIME.format(Instant.ofEpochMilli(firstTimestampMs + 3_600_000));
        succeeds(groups("--reset-offsets", "--group", group, "--all-topics", "--to-datetime", afterEverything,
                "--execute"));
        assertEquals(offsets(30L, 30L, 30L), committedOffsets(group), "no record that new: the log end");

        assertOneLineError(groups("--reset-offsets", "--group", group, "--all-topics", "--to-datetime",
                "2026-01-01 10:00"), KraftCli.EXIT_USAGE, "Invalid --to-datetime '2026-01-01 10:00'");
    }

    @Test
    void deleteRemovesAnEmptyGroupAndNamesTheOnesItCannot() throws Exception {
        commit("doomed", Map.of(0, 5L));
        assertTrue(groups("--list").out().lines().anyMatch("doomed"::equals));

        CliRun deleted = succeeds(groups("--delete", "--group", "doomed"));
        assertEquals("Deleted consumer group 'doomed'." + System.lineSeparator(), deleted.out());
        assertFalse(groups("--list").out().lines().anyMatch("doomed"::equals));
        assertEquals(Map.of(), committedOffsets("doomed"), "its offsets went with it");

        CliRun unknown = groups("--delete", "--group", "never-existed");
        assertOneLineError(unknown, KraftCli.EXIT_FAILURE,
                "Consumer group 'never-existed' could not be deleted: it does not exist.");

        assertOneLineError(groups("--describe", "--group", "never-existed"), KraftCli.EXIT_FAILURE,
                "Consumer group 'never-existed' does not exist.");
    }

    @Test
    void listPrintsGroupIdsAndWithStateTheirStates() throws Exception {
        commit("listed-a", Map.of(0, 1L));
        commit("listed-b", Map.of(1, 1L));
        List<String> ids = succeeds(groups("--list")).out().lines().toList();
        assertTrue(ids.indexOf("listed-a") >= 0 && ids.indexOf("listed-a") < ids.indexOf("listed-b"), ids.toString());

        List<List<String>> states = table(succeeds(groups("--list", "--state")).out());
        assertEquals(List.of("GROUP", "STATE"), states.get(0));
        assertTrue(states.contains(List.of("listed-a", "Empty")), states.toString());
        assertTrue(states.contains(List.of("listed-b", "Empty")), states.toString());

        List<List<String>> stable = table(succeeds(groups("--list", "--state", "stable")).out());
        assertFalse(stable.contains(List.of("listed-a", "Empty")), stable.toString());
        assertOneLineError(groups("--list", "--state", "Sleeping"), KraftCli.EXIT_USAGE,
                "Unknown group state 'Sleeping'");
    }

    @Test
    void conflictingOptionsAreOneLineAndWrongFlagsGetTheUsage() {
        assertOneLineError(groups("--reset-offsets", "--group", "g", "--topic", TOPIC, "--to-earliest",
                "--to-latest"), KraftCli.EXIT_USAGE, "not --to-earliest and --to-latest");
        assertOneLineError(groups("--reset-offsets", "--group", "g", "--topic", TOPIC, "--to-earliest", "--dry-run",
                "--execute"), KraftCli.EXIT_USAGE, "--dry-run and --execute are mutually exclusive");
        assertOneLineError(groups("--reset-offsets", "--group", "g", "--to-earliest"), KraftCli.EXIT_USAGE,
                "--reset-offsets needs --topic or --all-topics");
        assertOneLineError(groups("--list", "--describe"), KraftCli.EXIT_USAGE,
                "Exactly one of --list, --describe, --reset-offsets or --delete");
        assertOneLineError(groups("--describe"), KraftCli.EXIT_USAGE, "--describe needs --group or --all-groups");
        assertOneLineError(groups("--list", "--group", "g"), KraftCli.EXIT_USAGE, "--group is not valid with --list");
        assertOneLineError(groups("--describe", "--group", "g", "--to-latest"), KraftCli.EXIT_USAGE,
                "--to-latest is only valid with --reset-offsets");
        assertOneLineError(groups("--describe", "--group", "g", "--members", "--state"), KraftCli.EXIT_USAGE,
                "at most one of --offsets, --members or --state");

        CliRun wrongFlag = groups("--lst");
        assertEquals(KraftCli.EXIT_USAGE, wrongFlag.exitCode());
        assertTrue(wrongFlag.err().contains("Unknown option: '--lst'"), wrongFlag.err());
        assertTrue(wrongFlag.err().contains("Usage: kraft-cli groups"), wrongFlag.err());
    }

    @Test
    void anUnreachableClusterIsOneLineAfterTheTimeout() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        CliRun run = CliRun.of("groups", "--bootstrap-server", "localhost:" + closedPort, "--list",
                "--timeout", "1000");
        assertOneLineError(run, KraftCli.EXIT_FAILURE, "Timed out");
    }

    private CliRun groups(String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "groups";
        full[1] = "--bootstrap-server";
        full[2] = node.bootstrap();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    private static CliRun succeeds(CliRun run) {
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        return run;
    }

    private static void assertOneLineError(CliRun run, int exitCode, String contained) {
        assertEquals(exitCode, run.exitCode(), run.out() + run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("Error: "), run.err());
        assertTrue(run.err().contains(contained), run.err());
    }

    /** A table's lines split into cells (no cell the tests read contains a space). */
    private static List<List<String>> table(String out) {
        return table(out.lines().toList());
    }

    private static List<List<String>> table(List<String> lines) {
        List<List<String>> rows = new ArrayList<>();
        for (String line : lines) {
            rows.add(Arrays.asList(line.trim().split(" +")));
        }
        return rows;
    }

    private KafkaConsumer<String, String> consumer(String group) {
        return consumer(group, "earliest");
    }

    private KafkaConsumer<String, String> consumer(String group, String autoOffsetReset) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap(),
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.CLIENT_ID_CONFIG, group + "-client",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, autoOffsetReset,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5"),
                new StringDeserializer(), new StringDeserializer());
    }

    /** Commits offsets for a group no consumer is in, as a consumer that only assigns partitions does. */
    private void commit(String group, Map<Integer, Long> offsetsByPartition) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        offsetsByPartition.forEach((partition, offset) ->
                offsets.put(new TopicPartition(TOPIC, partition), new OffsetAndMetadata(offset)));
        try (KafkaConsumer<String, String> consumer = consumer(group)) {
            consumer.assign(offsets.keySet());
            consumer.commitSync(offsets);
        }
    }

    private Map<TopicPartition, Long> committedOffsets(String group) throws Exception {
        Map<TopicPartition, Long> committed = new HashMap<>();
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().forEach((partition, offset) -> {
            if (offset != null) {
                committed.put(partition, offset.offset());
            }
        });
        return committed;
    }

    private static Map<TopicPartition, Long> offsets(Long... byPartition) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (int partition = 0; partition < byPartition.length; partition++) {
            offsets.put(new TopicPartition(TOPIC, partition), byPartition[partition]);
        }
        return offsets;
    }
}
