package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * 'kraft-cli metadata-shell' as a process on a stopped node's metadata log directory: it finds the topic a real
 * Admin client created while the node ran, and refuses the directory while the node still runs. 'kraft-cli quorum'
 * names the running node as the leader.
 */
class MetadataShellProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long ADMIN_WAIT_MS = 30_000;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    @Test
    void findsTheTopicsOfAStoppedNodeAndRefusesARunningOne() throws Exception {
        NodeConfigFile node = NodeConfigFile.combined(1, dataDir.resolve("node-1"));
        Path config = node.write();
        String clusterId = MetaProperties.randomUuid();
        JvmProcess format = processes.run(JvmSpec.kraftCli("format", "format", "-c", config.toString(), "-t",
                clusterId), WAIT);
        assertEquals(0, format.waitForExit(WAIT), format.describeLogs());
        Path metadataDir = node.directories().get(1);

        JvmProcess running = processes.start(JvmSpec.kraftCli("node-1", "start", "--config", config.toString()));
        running.waitForLogLine("Broker 1 is unfenced", WAIT);
        String ordersId;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + node.brokerPort(), AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"))) {
            ordersId = admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1))).topicId("orders")
                    .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).toString();
        }

        JvmProcess status = processes.run(JvmSpec.kraftCli("quorum-status", "quorum", "--bootstrap-controller",
                "127.0.0.1:" + node.controllerPort(), "describe", "--status"), WAIT);
        assertEquals(0, status.waitForExit(WAIT), status.describeLogs());
        assertTrue(status.stdout().contains("ClusterId:              " + clusterId), status.stdout());
        assertTrue(status.stdout().contains("LeaderId:               1"), status.stdout());
        assertTrue(status.stdout().contains("CurrentVoters:          [1]"), status.stdout());

        JvmProcess refused = processes.run(JvmSpec.kraftCli("shell-while-running", "metadata-shell", "--directory",
                metadataDir.toString(), "ls", "/topics"), WAIT);
        assertEquals(1, refused.waitForExit(WAIT), refused.describeLogs());
        assertTrue(refused.stderr().contains("Error: the node using " + metadataDir + " is running (process "
                + running.pid() + " holds .lock)"), refused.describeLogs());

        // A second node started on the same directories is refused in one line, and the first serves on.
        JvmProcess twice = processes.run(JvmSpec.kraftCli("start-twice", "start", "--config", config.toString()),
                WAIT);
        assertEquals(1, twice.waitForExit(WAIT), twice.describeLogs());
        assertTrue(twice.stderr().lines().anyMatch(line -> line.startsWith("Error: the directory ")
                && line.contains(" is in use by another process")), twice.describeLogs());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + node.brokerPort(), AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"))) {
            assertEquals(Set.of("orders"), admin.listTopics().names().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS));
        }

        int exitCode = running.stop(WAIT);
        assertTrue(exitCode == 0 || exitCode == 143, "exit code " + exitCode + running.describeLogs());

        JvmProcess topics = processes.run(JvmSpec.kraftCli("shell-ls", "metadata-shell", "--directory",
                metadataDir.toString(), "ls", "/topics"), WAIT);
        assertEquals(0, topics.waitForExit(WAIT), topics.describeLogs());
        assertEquals(List.of("orders"), topics.stdout().lines().toList());

        JvmProcess id = processes.run(JvmSpec.kraftCli("shell-cat", "metadata-shell", "--directory",
                metadataDir.toString(), "cat", "/topics/orders/id"), WAIT);
        assertEquals(0, id.waitForExit(WAIT), id.describeLogs());
        assertEquals(ordersId, id.stdout().strip());

        JvmProcess partitions = processes.run(JvmSpec.kraftCli("shell-ls-ids", "metadata-shell", "--directory",
                metadataDir.toString(), "ls", "/topicIds/" + ordersId), WAIT);
        assertEquals(0, partitions.waitForExit(WAIT), partitions.describeLogs());
        assertEquals(List.of("0", "1", "2", "id", "name"), partitions.stdout().lines().toList());
    }
}
