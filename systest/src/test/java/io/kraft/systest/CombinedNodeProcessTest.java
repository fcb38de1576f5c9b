package io.kraft.systest;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** 'kraft-cli start' as a real process, driven by the real Java Admin client, surviving kill -9. */
class CombinedNodeProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long ADMIN_WAIT_MS = 30_000;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    @Test
    void servesAdminTopicsAndRecoversThemAfterKillNine() throws Exception {
        NodeConfigFile node = NodeConfigFile.combined(1, dataDir.resolve("node-1"));
        Path config = node.write();
        JvmProcess format = processes.run(JvmSpec.kraftCli("format",
                "format", "-c", config.toString(), "-t", MetaProperties.randomUuid()), WAIT);
        assertEquals(0, format.waitForExit(WAIT), format.describeLogs());

        JvmProcess first = start(config, "start-1");
        assertTrue(first.stdout().contains("kraft node 1 ready, listening: PLAINTEXT "), first.describeLogs());
        assertTrue(first.stdout().contains("(first start)"), first.describeLogs());
        assertTrue(first.stderr().contains("Log directory " + node.directories().get(0) + " is new"),
                first.describeLogs());
        assertTrue(first.stdout().contains("stop with Ctrl-C or kill " + first.pid()), first.describeLogs());
        try (Admin admin = admin(node)) {
            admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1), new NewTopic("payments", 3, (short) 1)))
                    .all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            await().atMost(WAIT).untilAsserted(() -> assertEquals(Set.of("orders", "payments"),
                    admin.listTopics().names().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS)));
            Map<String, TopicDescription> described = admin.describeTopics(List.of("orders", "payments"))
                    .allTopicNames().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            for (TopicDescription topic : described.values()) {
                assertEquals(3, topic.partitions().size(), topic.toString());
                for (TopicPartitionInfo partition : topic.partitions()) {
                    assertEquals(1, partition.leader().id(), topic.toString());
                }
            }
            admin.deleteTopics(List.of("payments")).all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            assertEquals(Set.of("orders"), admin.listTopics().names().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS));
        }
        first.kill(WAIT);

        JvmProcess second = start(config, "start-2");
        assertTrue(second.stdout().contains("(recovered after an unclean shutdown)"), second.describeLogs());
        assertTrue(second.stderr().contains("Recovered metadata log " + node.directories().get(1)
                .resolve("__cluster_metadata-0") + " after an unclean shutdown"), second.describeLogs());
        try (Admin admin = admin(node)) {
            await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertEquals(Set.of("orders"),
                    admin.listTopics().names().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS)));
            TopicDescription orders = admin.describeTopics(List.of("orders")).allTopicNames()
                    .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).get("orders");
            assertEquals(3, orders.partitions().size());
        }
        int exitCode = second.stop(WAIT);
        assertTrue(exitCode == 0 || exitCode == 143, "exit code " + exitCode + "\n" + second.describeLogs());
        assertTrue(second.stderr().contains("Node 1 stopped"), second.describeLogs());
    }

    @Test
    void startWithoutArgumentsFormatsDataOnceAndReusesIt() throws Exception {
        // Free ports instead of the default 9092/9093, which other processes on this machine may hold.
        int clientPort = FreePorts.next();
        int controllerPort = FreePorts.next();
        Path data = Files.createDirectories(dataDir.resolve("data"));
        Files.writeString(data.resolve("server.properties"), String.join("\n",
                "process.roles=broker,controller", "node.id=1", "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + clientPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "log.dirs=./data/kraft-logs", "metadata.log.dir=./data/metadata", ""));

        JvmProcess first = processes.start(JvmSpec.kraftCli("no-args-1", "start").inDirectory(dataDir));
        String clusterId = first.waitForLogLine("with new cluster.id (\\S+)", WAIT).group(1);
        first.waitForLogLine("kraft node 1 ready, listening: PLAINTEXT 127.0.0.1:" + clientPort + ", .* \\(first start\\)$",
                WAIT);
        int firstExit = first.stop(WAIT);
        assertTrue(firstExit == 0 || firstExit == 143, "exit code " + firstExit + first.describeLogs());
        assertEquals(clusterId, MetaProperties.read(data.resolve("metadata")).orElseThrow().clusterId());

        JvmProcess second = processes.start(JvmSpec.kraftCli("no-args-2", "start").inDirectory(dataDir));
        second.waitForLogLine("kraft node 1 ready, listening: .* \\(restarted after a clean shutdown\\)$", WAIT);
        assertFalse(second.stdout().contains("new cluster.id"), second.describeLogs());
        assertTrue(second.stderr().contains("Loaded 0 logs from ./data/kraft-logs after a clean shutdown"),
                second.describeLogs());
        assertTrue(second.stderr().contains("Opened metadata log ./data/metadata/__cluster_metadata-0 after a clean "
                + "shutdown"), second.describeLogs());
        assertEquals(clusterId, MetaProperties.read(data.resolve("kraft-logs")).orElseThrow().clusterId());
        int secondExit = second.stop(WAIT);
        assertTrue(secondExit == 0 || secondExit == 143, "exit code " + secondExit + second.describeLogs());
    }

    @Test
    void withoutMetadataLogDirTheMetadataLogSitsInTheFirstLogDirectory() throws Exception {
        NodeConfigFile node = NodeConfigFile.combined(1, dataDir.resolve("node-1")).with("metadata.log.dir", null);
        Path config = node.write();
        Path logs = node.directories().get(0);
        JvmProcess format = processes.run(JvmSpec.kraftCli("format",
                "format", "-c", config.toString(), "-t", MetaProperties.randomUuid()), WAIT);
        assertEquals(0, format.waitForExit(WAIT), format.describeLogs());

        JvmProcess first = start(config, "start-1");
        try (Admin admin = admin(node)) {
            admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1))).all()
                    .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
        }
        int exitCode = first.stop(WAIT);
        assertTrue(exitCode == 0 || exitCode == 143, "exit code " + exitCode + first.describeLogs());
        assertTrue(Files.isDirectory(logs.resolve("orders-0")) && Files.isDirectory(logs.resolve("orders-1")));
        Path metadataLog = logs.resolve("__cluster_metadata-0");
        assertTrue(Files.isRegularFile(metadataLog.resolve("00000000000000000000.raftlog")), first.describeLogs());

        JvmProcess shell = processes.run(JvmSpec.kraftCli("shell", "metadata-shell", "--directory",
                metadataLog.toString(), "ls", "/topics"), WAIT);
        assertEquals(0, shell.waitForExit(WAIT), shell.describeLogs());
        assertEquals(List.of("orders"), shell.stdout().lines().toList());

        JvmProcess second = start(config, "start-2");
        assertTrue(second.stdout().contains("(restarted after a clean shutdown)"), second.describeLogs());
        try (Admin admin = admin(node)) {
            // once a topic created after the restart exists, the broker's stray-log sweep has run
            admin.createTopics(List.of(new NewTopic("after", 1, (short) 1))).all()
                    .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            await().atMost(WAIT).until(() -> Files.isDirectory(logs.resolve("after-0")));
            assertEquals(Set.of("orders", "after"),
                    admin.listTopics().names().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS));
        }
        assertTrue(Files.isRegularFile(metadataLog.resolve("00000000000000000000.raftlog")), second.describeLogs());
        assertFalse(second.stderr().contains("stray"), second.describeLogs());
    }

    private JvmProcess start(Path config, String name) {
        JvmProcess process = processes.start(JvmSpec.kraftCli(name, "start", "--config", config.toString()));
        process.waitForLogLine("kraft node 1 ready", WAIT);
        process.waitForLogLine("Broker 1 is unfenced", WAIT);
        return process;
    }

    private static Admin admin(NodeConfigFile node) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + node.brokerPort(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
    }
}
