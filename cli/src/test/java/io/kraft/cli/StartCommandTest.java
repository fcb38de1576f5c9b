package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.node.CombinedNode;
import io.kraft.storage.MetaProperties;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The refusals of {@code start} and the node it assembles from a formatted configuration. */
class StartCommandTest {
    @TempDir
    Path root;

    private Path config(String roles, int clientPort, int controllerPort) throws Exception {
        String text = "process.roles=" + roles + "\n"
                + "node.id=1\n"
                + "controller.quorum.voters=1@localhost:" + controllerPort + "\n"
                + "listeners=PLAINTEXT://localhost:" + clientPort + ",CONTROLLER://localhost:" + controllerPort + "\n"
                + "log.dirs=" + root.resolve("logs") + "\n"
                + "metadata.log.dir=" + root.resolve("metadata") + "\n";
        Path file = root.resolve("server.properties");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void refusesUnformattedDirectoriesWithOneLine() throws Exception {
        Path config = config("broker,controller", 9092, 9093);
        CliRun run = CliRun.of("start", "--config", config.toString());
        assertEquals(KraftCli.EXIT_FAILURE, run.exitCode());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().contains("is not formatted: run 'kraft-cli format --config " + config), run.err());
    }

    @Test
    void refusesANodeThatIsNotCombined() throws Exception {
        Path config = config("controller", 9092, 9093);
        CliRun run = CliRun.of("start", "-c", config.toString());
        assertEquals(KraftCli.EXIT_FAILURE, run.exitCode());
        assertTrue(run.err().contains("start runs only combined nodes"), run.err());
    }

    @Test
    void startsAFormattedCombinedNodeThatUnfencesItsBroker() throws Exception {
        int clientPort = freePort();
        int controllerPort = freePort();
        Path config = config("broker,controller", clientPort, controllerPort);
        String clusterId = MetaProperties.randomUuid();
        assertEquals(0, CliRun.of("format", "-c", config.toString(), "-t", clusterId).exitCode());
        try (CombinedNode node = StartCommand.startNode(NodeConfigs.load(config), config)) {
            assertEquals(clientPort, node.clientPort());
            assertEquals(controllerPort, node.controllerPort());
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!node.isBrokerUnfenced() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(node.isBrokerUnfenced(), "the broker was not unfenced within 30 s");
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
