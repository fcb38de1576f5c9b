package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** kraft-cli run as the distribution runs it: a separate JVM from the shaded jar. */
class KraftCliProcessTest {
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    @Test
    void randomUuidPrintsAClusterId() {
        JvmProcess run = processes.run(JvmSpec.kraftCli("random-uuid", "random-uuid"), EXIT_TIMEOUT);
        assertEquals(0, run.waitForExit(EXIT_TIMEOUT), run.describeLogs());
        List<String> lines = run.stdout().lines().toList();
        assertEquals(1, lines.size(), run.stdout());
        assertTrue(MetaProperties.isValidUuid(lines.get(0)), lines.get(0));
    }

    @Test
    void versionNamesTheBuild() {
        JvmProcess run = processes.run(JvmSpec.kraftCli("version", "--version"), EXIT_TIMEOUT);
        assertEquals(0, run.waitForExit(EXIT_TIMEOUT), run.describeLogs());
        assertTrue(run.stdout().startsWith("kraft-cli "), run.stdout());
    }

    @Test
    void formatWritesMetaPropertiesThenRefusesToFormatAgain() {
        NodeConfigFile node = NodeConfigFile.combined(1, dataDir.resolve("node-1"));
        Path config = node.write();
        String clusterId = MetaProperties.randomUuid();

        JvmProcess format = processes.run(JvmSpec.kraftCli("format",
                "format", "--config", config.toString(), "--cluster-id", clusterId), EXIT_TIMEOUT);
        assertEquals(0, format.waitForExit(EXIT_TIMEOUT), format.describeLogs());
        for (Path dir : node.directories()) {
            MetaProperties meta = MetaProperties.read(dir).orElseThrow(() -> new AssertionError("no meta.properties in " + dir));
            assertEquals(clusterId, meta.clusterId());
            assertEquals(1, meta.nodeId());
            assertTrue(format.stdout().contains("Formatted " + dir), format.stdout());
        }

        JvmProcess again = processes.run(JvmSpec.kraftCli("format-again",
                "format", "--config", config.toString(), "--cluster-id", MetaProperties.randomUuid()), EXIT_TIMEOUT);
        assertEquals(1, again.waitForExit(EXIT_TIMEOUT), again.describeLogs());
        List<String> errors = again.stderr().lines().filter(line -> !line.startsWith("# ")).toList();
        assertEquals(1, errors.size(), again.stderr());
        assertTrue(errors.get(0).contains("is already formatted with cluster.id " + clusterId), errors.get(0));
        assertEquals(clusterId, MetaProperties.read(node.directories().get(0)).orElseThrow().clusterId(), "left unchanged");
    }

    @Test
    void formatResolvesRelativeDirectoriesAgainstTheWorkingDirectory() throws Exception {
        Path config = Files.writeString(dataDir.resolve("server.properties"), String.join("\n",
                "process.roles=broker,controller", "node.id=1", "controller.quorum.voters=1@localhost:9093",
                "listeners=PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093",
                "log.dirs=./data/kraft-logs", "metadata.log.dir=./data/metadata", ""));
        JvmProcess format = processes.run(JvmSpec.kraftCli("format-relative",
                "format", "-c", "server.properties", "-t", MetaProperties.randomUuid()).inDirectory(dataDir), EXIT_TIMEOUT);
        assertEquals(0, format.waitForExit(EXIT_TIMEOUT), format.describeLogs());
        assertTrue(Files.exists(dataDir.resolve("data/kraft-logs/meta.properties")), format.describeLogs());
        assertTrue(Files.exists(dataDir.resolve("data/metadata/meta.properties")), format.describeLogs());
        assertTrue(Files.exists(config));
    }

    @Test
    void wrongFlagsAreAUsageErrorWithExitCode2() {
        JvmProcess run = processes.run(JvmSpec.kraftCli("bad-flag",
                "format", "--config", "server.properties", "--cluster-id", MetaProperties.randomUuid(), "--no-such-flag"), EXIT_TIMEOUT);
        assertEquals(2, run.waitForExit(EXIT_TIMEOUT), run.describeLogs());
        assertTrue(run.stderr().contains("Unknown option: '--no-such-flag'"), run.stderr());
        // Picocli follows the error with the usage, or with the options the flag resembles when there are some
        // (here `--no-initial-controllers`).
        assertTrue(run.stderr().contains("Usage: kraft-cli format") || run.stderr().contains("Possible solutions: "),
                run.stderr());
        assertFalse(run.stdout().contains("Formatted"), run.stdout());
    }

    @Test
    void aNodeWhosePortsAreTakenStopsWithOneErrorLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            NodeConfigFile node = NodeConfigFile.combined(1, dataDir.resolve("node-1"))
                    .with("controller.quorum.voters", "1@127.0.0.1:" + taken.getLocalPort())
                    .with("listeners", "PLAINTEXT://127.0.0.1:" + FreePorts.next() + ",CONTROLLER://127.0.0.1:"
                            + taken.getLocalPort());
            Path config = node.write();
            JvmProcess format = processes.run(JvmSpec.kraftCli("format-taken", "format", "-c", config.toString(),
                    "-t", MetaProperties.randomUuid()), EXIT_TIMEOUT);
            assertEquals(0, format.waitForExit(EXIT_TIMEOUT), format.describeLogs());
            JvmProcess start = processes.run(JvmSpec.kraftCli("start-taken", "start", "-c", config.toString()),
                    EXIT_TIMEOUT);
            assertEquals(1, start.waitForExit(EXIT_TIMEOUT), start.describeLogs());
            List<String> errors = start.stderr().lines().filter(line -> line.startsWith("Error: ")).toList();
            assertEquals(1, errors.size(), start.describeLogs());
            assertTrue(errors.get(0).startsWith("Error: node 1 cannot serve Raft and the controller on its CONTROLLER "
                    + "port " + taken.getLocalPort() + ": ") && errors.get(0).contains("Address already in use"),
                    errors.get(0));
            assertFalse(start.stderr().contains("\tat "), "no stack trace" + start.describeLogs());
        }
    }
}
