package io.kraft.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.TestWaits;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.server.ControllerNode;
import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kraft-cli quorum add-controller} and {@code remove-controller} (KIP-853) against two live controllers: one
 * formatted {@code --standalone}, one {@code --no-initial-controllers} that the tool adds from its own configuration
 * file and then removes; bad input gets one line.
 */
class QuorumControllerChangesTest {
    private static final String CLUSTER_ID = MetaProperties.randomUuid();
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path root;

    private final List<ControllerNode> nodes = new ArrayList<>();
    private final List<String> faults = new CopyOnWriteArrayList<>();
    private final FaultHandler faultHandler = (message, cause) -> faults.add(message);

    @AfterEach
    void stop() {
        nodes.forEach(ControllerNode::close);
        assertEquals(List.of(), faults);
    }

    private Path config(int nodeId, String voters, int port) throws Exception {
        Path file = root.resolve("controller-" + nodeId + ".properties");
        Files.writeString(file, "process.roles=controller\nnode.id=" + nodeId + "\n"
                + "controller.quorum.voters=" + voters + "\n"
                + "listeners=CONTROLLER://localhost:" + port + "\ncontroller.listener.names=CONTROLLER\n"
                + "log.dirs=" + root.resolve("metadata-" + nodeId) + "\n");
        return file;
    }

    private void start(int nodeId, String voters) {
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        nodes.add(ControllerNode.start(nodeId, CLUSTER_ID, root.resolve("metadata-" + nodeId), Map.of(
                "controller.quorum.voters", voters, "controller.quorum.election.timeout.ms", "500",
                "controller.quorum.fetch.timeout.ms", "1000"), topicConfigs, faultHandler));
    }

    @Test
    void aControllerIsAddedFromItsConfigurationAndRemovedByIdAndDirectory() throws Exception {
        int port1 = TestWaits.freePort();
        int port2 = TestWaits.freePort();
        String voters1 = "1@localhost:" + port1;
        String voters2 = voters1 + ",2@localhost:" + port2;
        Path config1 = config(1, voters1, port1);
        Path config2 = config(2, voters2, port2);
        assertEquals(0, CliRun.of("format", "--config", config1.toString(), "--cluster-id", CLUSTER_ID,
                "--standalone").exitCode());
        assertEquals(0, CliRun.of("format", "--config", config2.toString(), "--cluster-id", CLUSTER_ID,
                "--no-initial-controllers").exitCode());
        String directory2 = MetaProperties.read(root.resolve("metadata-2")).orElseThrow().directoryId();
        start(1, voters1);
        start(2, voters2);
        String bootstrap = "localhost:" + port1;

        // Refused (REQUEST_TIMED_OUT) until controller 2 has caught up as an observer.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> CliRun.of("quorum",
                "--bootstrap-controller", bootstrap, "--command-config", config2.toString(), "add-controller")
                .exitCode() == 0);
        CliRun replication = CliRun.of("quorum", "--bootstrap-controller", bootstrap, "describe", "--replication");
        assertTrue(replication.out().lines().anyMatch(l -> l.startsWith("2 ") && l.contains(directory2)
                && l.contains("Follower")), replication.out());

        CliRun again = CliRun.of("quorum", "--bootstrap-controller", bootstrap, "--command-config",
                config2.toString(), "add-controller");
        assertEquals(KraftCli.EXIT_FAILURE, again.exitCode());
        assertOneLine(again.err(), "DUPLICATE_VOTER");

        CliRun removed = CliRun.of("quorum", "--bootstrap-controller", bootstrap, "remove-controller",
                "--controller-id", "2", "--controller-directory-id", directory2);
        assertEquals(0, removed.exitCode(), removed.err());
        assertTrue(removed.out().contains("Removed controller 2"), removed.out());
        CliRun missing = CliRun.of("quorum", "--bootstrap-controller", bootstrap, "remove-controller",
                "--controller-id", "2", "--controller-directory-id", directory2);
        assertEquals(KraftCli.EXIT_FAILURE, missing.exitCode());
        assertOneLine(missing.err(), "VOTER_NOT_FOUND");
    }

    @Test
    void badInputGetsOneLine() throws Exception {
        CliRun badDirectory = CliRun.of("quorum", "--bootstrap-controller", "localhost:1", "remove-controller",
                "--controller-id", "2", "--controller-directory-id", "not-a-uuid");
        assertTrue(badDirectory.exitCode() != 0);
        assertTrue(badDirectory.err().lines().findFirst().orElse("").contains("--controller-directory-id"),
                badDirectory.err());
        CliRun noConfig = CliRun.of("quorum", "--bootstrap-controller", "localhost:1", "add-controller");
        assertTrue(noConfig.exitCode() != 0);
        assertTrue(noConfig.err().lines().findFirst().orElse("").contains("--command-config"), noConfig.err());
        Path unformatted = config(3, "3@localhost:1", 1);
        CliRun notFormatted = CliRun.of("quorum", "--bootstrap-controller", "localhost:1", "--command-config",
                unformatted.toString(), "add-controller");
        assertEquals(KraftCli.EXIT_FAILURE, notFormatted.exitCode());
        assertOneLine(notFormatted.err(), "is not formatted");
    }

    private static void assertOneLine(String err, String expected) {
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.contains(expected), err);
    }
}
