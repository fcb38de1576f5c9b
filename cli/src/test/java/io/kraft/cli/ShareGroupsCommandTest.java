package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kraft-cli share-groups --describe} against an in-process node with a live kafka-clients share consumer. */
class ShareGroupsCommandTest {

    @Test
    void describeShowsTheMembersAndTheirPartitionsOrTheState(@TempDir Path dir) throws Exception {
        try (ClientNode node = new ClientNode(dir);
             Admin admin = Admin.create(Map.of("bootstrap.servers", node.bootstrap()))) {
            admin.createTopics(List.of(new NewTopic("jobs", 2, (short) 1))).all().get();
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
            props.put(ConsumerConfig.GROUP_ID_CONFIG, "workers");
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, "worker-1");
            props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props)) {
                consumer.subscribe(List.of("jobs"));
                Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    consumer.poll(Duration.ofMillis(100));
                    CliRun run = shareGroups(node, "--describe", "--group", "workers");
                    assertTrue(run.exitCode() == 0 && run.out().contains("jobs(0,1)"), run.out() + run.err());
                });
                CliRun members = shareGroups(node, "--describe", "--group", "workers", "--members");
                assertEquals("", members.err());
                List<String> lines = members.out().lines().filter(l -> !l.isBlank()).toList();
                assertEquals(List.of("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT"),
                        Arrays.asList(lines.get(0).trim().split(" +")));
                List<String> row = Arrays.asList(lines.get(1).trim().split(" +"));
                assertEquals("workers", row.get(0));
                assertEquals(List.of("worker-1", "2", "jobs(0,1)"), row.subList(3, 6));

                CliRun state = shareGroups(node, "--describe", "--group", "workers", "--state");
                String stateRow = state.out().lines().skip(1).findFirst().orElseThrow();
                assertTrue(stateRow.matches("workers +localhost:\\d+ \\(1\\) +Stable +1"), stateRow);
            }
            CliRun unknown = shareGroups(node, "--describe", "--group", "nobody");
            assertEquals(KraftCli.EXIT_FAILURE, unknown.exitCode(), unknown.out() + unknown.err());
            assertEquals(1, unknown.err().lines().count(), unknown.err());
            CliRun both = shareGroups(node, "--describe", "--group", "workers", "--members", "--state");
            assertEquals(KraftCli.EXIT_USAGE, both.exitCode());
        }
    }

    private static CliRun shareGroups(ClientNode node, String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "share-groups";
        full[1] = "--bootstrap-server";
        full[2] = node.bootstrap();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }
}
