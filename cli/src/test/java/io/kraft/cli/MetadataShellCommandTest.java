package io.kraft.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.TestWaits;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.server.CombinedNode;
import io.kraft.storage.MetaProperties;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An in-process combined node creates topics through the real Admin client and stops; metadata-shell then finds
 * them in its metadata log directory, once from the log alone and once from a snapshot (plus the log after it).
 * While the node runs, quorum describe names it as the leader and metadata-shell refuses to read its directory.
 */
class MetadataShellCommandTest {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
    private static final long WAIT_MS = 30_000;

    @TempDir
    Path dir;

    private CombinedNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private Path metadataDir() {
        return dir.resolve("metadata");
    }

    /** Starts node 1, creates two topics (one with a config override), then stops it; returns orders' topic id. */
    private String runNodeAndCreateTopics(Map<String, String> extraProperties) throws Exception {
        int controllerPort = freePort();
        Map<String, String> properties = new HashMap<>(extraProperties);
        properties.put("controller.quorum.voters", "1@localhost:" + controllerPort);
        properties.put("log.dirs", dir.resolve("logs").toString()); // not Kafka's default /tmp/kafka-logs
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        MetaProperties.forNewDirectory(CLUSTER_ID, 1).write(metadataDir()); // what 'kraft-cli format' writes
        node = CombinedNode.start(1, CLUSTER_ID, metadataDir(), "PLAINTEXT://localhost:" + freePort(), properties,
                topicConfigs);
        await().atMost(Duration.ofMillis(WAIT_MS)).until(node::isBrokerUnfenced);
        String ordersId;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + node.clientPort(), AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000"))) {
            ordersId = admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1),
                    new NewTopic("payments", 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                    .topicId("orders").get(WAIT_MS, TimeUnit.MILLISECONDS).toString();
        }

        CliRun status = CliRun.of("quorum", "--bootstrap-controller", "localhost:" + node.controllerPort(),
                "describe", "--status");
        assertEquals(0, status.exitCode(), status.err());
        assertTrue(status.out().contains("ClusterId:              " + CLUSTER_ID + System.lineSeparator()),
                status.out());
        assertTrue(status.out().contains("LeaderId:               1" + System.lineSeparator()), status.out());
        assertTrue(status.out().contains("CurrentVoters:          [1]" + System.lineSeparator()), status.out());
        assertTrue(status.out().contains("MaxFollowerLag:         0" + System.lineSeparator()), status.out());

        CliRun refused = shell("ls", "/topics");
        assertEquals(KraftCli.EXIT_FAILURE, refused.exitCode());
        assertEquals("Error: the node using " + metadataDir() + " is running (process " + ProcessHandle.current().pid()
                + " holds __cluster_metadata-0/controller-state/LOCK): stop it first, or inspect a copy of the directory",
                refused.err().strip());

        node.close();
        node = null;
        return ordersId;
    }

    private CliRun shell(String... command) {
        String[] args = Stream.concat(Stream.of("metadata-shell", "--directory", metadataDir().toString()),
                Stream.of(command)).toArray(String[]::new);
        return CliRun.of(args);
    }

    private void assertTopicsFound(String ordersId) {
        CliRun topics = shell("ls", "/topics");
        assertEquals(0, topics.exitCode(), topics.err());
        assertEquals(List.of("orders", "payments"), topics.out().lines().toList());

        assertEquals(ordersId, shell("cat", "/topics/orders/id").out().strip());
        assertEquals("orders", shell("cat", "/topicIds/" + ordersId + "/name").out().strip());
        assertEquals(List.of("0", "1", "2", "id", "name"), shell("ls", "/topics/orders").out().lines().toList());
        // Leader 1, or none after the broker's controlled shutdown moved its leaderships away.
        String data = shell("cat", "/topics/orders/2/data").out().strip();
        assertTrue(data.matches("\\{\"replicas\": \\[1], \"isr\": \\[1], \"leader\": (1|-1), \"leaderEpoch\": \\d+, "
                + "\"partitionEpoch\": \\d+}"), data);
        assertEquals("compact", shell("cat", "/configs/topic/payments/cleanup.policy").out().strip());
        assertEquals(List.of("1"), shell("ls", "/brokers").out().lines().toList());
        assertEquals(CLUSTER_ID, shell("cat", "/quorum/clusterId").out().strip());
        CliRun missing = shell("cat", "/topics/nope");
        assertEquals(KraftCli.EXIT_FAILURE, missing.exitCode());
        assertEquals("cat: /topics/nope: no such file or directory", missing.err().strip());
    }

    @Test
    void findsTheTopicsOfAStoppedNodeFromItsLogAndReadsCommandsFromStdin() throws Exception {
        String ordersId = runNodeAndCreateTopics(Map.of());
        assertEquals("none", shell("cat", "/quorum/latestSnapshot").out().strip(), "no snapshot was due");
        assertTopicsFound(ordersId);

        CliRun dump = CliRun.of("metadata-shell", "--directory", metadataDir().toString(), "--dump-log");
        assertEquals(0, dump.exitCode(), dump.err());
        List<String> lines = dump.out().lines().toList();
        assertTrue(lines.get(0).matches("offset=0 epoch=\\d+ LEADER_CHANGE leaderId=1"), lines.get(0));
        assertTrue(lines.stream().anyMatch(line -> line.matches(
                "offset=\\d+ epoch=\\d+ TOPIC name=\"orders\" topicId=" + ordersId)), dump.out());
        assertTrue(lines.stream().anyMatch(line -> line.contains("REGISTER_BROKER brokerId=1 ")), dump.out());

        // Kafka's habit: the log's own directory inside metadata.log.dir names it too.
        String kafkaForm = metadataDir().resolve("__cluster_metadata-0").toString();
        CliRun topics = CliRun.of("metadata-shell", "--directory", kafkaForm, "ls", "/topics");
        assertEquals(List.of("orders", "payments"), topics.out().lines().toList(), topics.err());
        assertEquals(CLUSTER_ID, CliRun.of("metadata-shell", "--directory", kafkaForm, "cat", "/quorum/clusterId")
                .out().strip());

        // Without a COMMAND the shell reads commands from stdin, and prompts only on a terminal.
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream("cd /topics/payments\nls\nexit\n".getBytes(StandardCharsets.UTF_8)));
            CliRun session = shell();
            assertEquals(0, session.exitCode(), session.err());
            assertEquals(List.of("0", "id", "name"), session.out().lines().toList());
        } finally {
            System.setIn(stdin);
        }
    }

    @Test
    void findsTheTopicsOfAStoppedNodeFromASnapshotAndTheLogAfterIt() throws Exception {
        // A snapshot after every committed batch, and the log prefix it covers deleted at once.
        String ordersId = runNodeAndCreateTopics(Map.of("metadata.log.max.record.bytes.between.snapshots", "1",
                "metadata.max.retention.bytes", "0"));
        String snapshot = shell("cat", "/quorum/latestSnapshot").out().strip();
        assertTrue(snapshot.matches("\\d{20}-\\d+"), snapshot);
        assertTrue(Long.parseLong(shell("cat", "/quorum/logStartOffset").out().strip()) > 0, "the prefix is gone");
        assertTopicsFound(ordersId);

        Path snapshotDir = metadataDir().resolve("__cluster_metadata-0").resolve("snapshots").resolve(snapshot);
        CliRun alone = CliRun.of("metadata-shell", "--snapshot", snapshotDir.toString(), "ls", "/brokers");
        assertEquals(0, alone.exitCode(), alone.err());
        assertEquals(List.of("1"), alone.out().lines().toList());
    }

    @Test
    void badArgumentsAndMissingDirectoriesAreOneLine() throws IOException {
        CliRun missing = CliRun.of("metadata-shell", "--directory", dir.resolve("nowhere").toString(), "ls");
        assertEquals(KraftCli.EXIT_FAILURE, missing.exitCode());
        assertEquals("Error: no metadata log directory at " + dir.resolve("nowhere"), missing.err().strip());

        Path notSnapshot = Files.createDirectories(dir.resolve("not-a-snapshot"));
        CliRun badSnapshot = CliRun.of("metadata-shell", "--snapshot", notSnapshot.toString(), "ls");
        assertEquals(KraftCli.EXIT_FAILURE, badSnapshot.exitCode());
        assertEquals(1, badSnapshot.err().lines().count(), badSnapshot.err());

        CliRun neither = CliRun.of("metadata-shell", "ls");
        assertEquals(KraftCli.EXIT_USAGE, neither.exitCode());
        CliRun both = CliRun.of("metadata-shell", "--directory", "a", "--snapshot", "b");
        assertEquals(KraftCli.EXIT_USAGE, both.exitCode());
        CliRun dumpWithCommand = CliRun.of("metadata-shell", "--directory", "a", "--dump-log", "ls");
        assertEquals(KraftCli.EXIT_USAGE, dumpWithCommand.exitCode());
        assertTrue(dumpWithCommand.err().startsWith("--dump-log needs --directory and no COMMAND"),
                dumpWithCommand.err());
    }

    /** A port no other part of this test JVM was given, below the kernel's ephemeral range. */
    private static int freePort() throws IOException {
        return TestWaits.freePort();
    }
}
