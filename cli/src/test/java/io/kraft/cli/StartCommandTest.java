package io.kraft.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.TestWaits;
import io.kraft.broker.network.TestCertificates;
import io.kraft.server.BrokerNode;
import io.kraft.server.CombinedNode;
import io.kraft.storage.DirectoryLock;
import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
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
    void refusesListenersItCannotServeWithOneLine() throws Exception {
        Path config = config("broker,controller", 9092, 9093);
        Files.writeString(config, Files.readString(config).replace("listeners=PLAINTEXT://", "listeners=SASL_PLAINTEXT://")
                + "sasl.enabled.mechanisms=GSSAPI\n");
        CliRun sasl = CliRun.of("start", "--config", config.toString());
        assertEquals(KraftCli.EXIT_FAILURE, sasl.exitCode());
        assertEquals("Error: SASL mechanism GSSAPI in sasl.enabled.mechanisms is not supported; this broker serves PLAIN,"
                + " SCRAM-SHA-256, SCRAM-SHA-512", sasl.err().strip());
        Files.writeString(config, Files.readString(config).replace("listeners=SASL_PLAINTEXT://", "listeners=SSL://")
                .replace("sasl.enabled.mechanisms=GSSAPI\n", "")
                + "ssl.keystore.location=" + root.resolve("missing.p12") + "\n");
        CliRun ssl = CliRun.of("start", "--config", config.toString());
        assertEquals(KraftCli.EXIT_FAILURE, ssl.exitCode());
        assertEquals("Error: Invalid ssl.keystore.location for listener SSL: no such file: " + root.resolve("missing.p12"),
                ssl.err().strip());
    }

    @Test
    void refusesAnSslControlPlaneWithoutItsKeyMaterialWithOneLine() throws Exception {
        Path config = config("controller", 9092, 9093);
        Files.writeString(config, Files.readString(config).replace("listeners=PLAINTEXT://localhost:9092,",
                "listeners=") + "listener.security.protocol.map=CONTROLLER:SSL\n");
        CliRun noKeyStore = CliRun.of("start", "--config", config.toString());
        assertEquals(KraftCli.EXIT_FAILURE, noKeyStore.exitCode());
        assertEquals("Error: The control plane's listener CONTROLLER is SSL but ssl.keystore.location (or"
                + " listener.name.controller.ssl.keystore.location) is not set: every node presents its own certificate"
                + " there", noKeyStore.err().strip());
        TestCertificates certs = TestCertificates.create(Files.createDirectories(root.resolve("certs")));
        Files.writeString(config, Files.readString(config) + "listener.name.controller.ssl.keystore.type=PKCS12\n"
                + "listener.name.controller.ssl.keystore.location=" + certs.brokerKeyStore() + "\n"
                + "listener.name.controller.ssl.keystore.password=wrong\n");
        CliRun wrongPassword = CliRun.of("start", "--config", config.toString());
        assertEquals(KraftCli.EXIT_FAILURE, wrongPassword.exitCode());
        assertEquals(1, wrongPassword.err().strip().lines().count(), wrongPassword.err());
        assertTrue(wrongPassword.err().startsWith("Error: Invalid ssl.keystore.password for listener CONTROLLER: it"
                + " does not open " + certs.brokerKeyStore()), wrongPassword.err());
    }

    @Test
    void startsADedicatedControllerAndABrokerThatRegistersWithIt() throws Exception {
        int controllerPort = freePort();
        int clientPort = freePort();
        Path controllerConfig = root.resolve("controller.properties");
        Files.writeString(controllerConfig, "process.roles=controller\nnode.id=1\n"
                + "controller.quorum.voters=1@localhost:" + controllerPort + "\n"
                + "listeners=CONTROLLER://localhost:" + controllerPort + "\n"
                + "log.dirs=" + root.resolve("controller/logs") + "\nmetadata.log.dir=" + root.resolve("controller/metadata") + "\n");
        Path brokerConfig = root.resolve("broker.properties");
        Files.writeString(brokerConfig, "process.roles=broker\nnode.id=2\n"
                + "controller.quorum.voters=1@localhost:" + controllerPort + "\n"
                + "listeners=PLAINTEXT://localhost:" + clientPort + "\n"
                + "log.dirs=" + root.resolve("broker/logs") + "\nmetadata.log.dir=" + root.resolve("broker/metadata") + "\n");
        String clusterId = MetaProperties.randomUuid();
        assertEquals(0, CliRun.of("format", "-c", controllerConfig.toString(), "-t", clusterId).exitCode());
        assertEquals(0, CliRun.of("format", "-c", brokerConfig.toString(), "-t", clusterId).exitCode());

        StartCommand.RunningNode controller = StartCommand.startNode(NodeConfigs.load(controllerConfig), controllerConfig);
        try {
            assertEquals("CONTROLLER localhost:" + controllerPort, controller.listening());
            StartCommand.RunningNode broker = StartCommand.startNode(NodeConfigs.load(brokerConfig), brokerConfig);
            try {
                assertEquals("PLAINTEXT localhost:" + clientPort, broker.listening());
                BrokerNode node = (BrokerNode) broker.node();
                awaitTrue(node::isBrokerUnfenced, "the broker was not unfenced within 30 s");
            } finally {
                broker.close();
            }
        } finally {
            controller.close();
        }
    }

    @Test
    void startsAFormattedCombinedNodeThatUnfencesItsBroker() throws Exception {
        int clientPort = freePort();
        int controllerPort = freePort();
        Path config = config("broker,controller", clientPort, controllerPort);
        String clusterId = MetaProperties.randomUuid();
        assertEquals(0, CliRun.of("format", "-c", config.toString(), "-t", clusterId).exitCode());
        StartCommand.RunningNode running = StartCommand.startNode(NodeConfigs.load(config), config);
        try {
            assertEquals("PLAINTEXT localhost:" + clientPort + ", CONTROLLER localhost:" + controllerPort,
                    running.listening());
            CombinedNode node = (CombinedNode) running.node();
            assertEquals(clientPort, node.clientPort());
            assertEquals(controllerPort, node.controllerPort());
            awaitTrue(node::isBrokerUnfenced, "the broker was not unfenced within 30 s");

            // A second node on the same directories is refused before it opens anything.
            DirectoryLock.DirectoryInUseException refused = assertThrows(DirectoryLock.DirectoryInUseException.class,
                    () -> StartCommand.startNode(NodeConfigs.load(config), config));
            assertTrue(refused.getMessage().contains(DirectoryLock.FILE_NAME), refused.getMessage());
            assertTrue(node.isBrokerUnfenced(), "the running node is untouched");
        } finally {
            running.close();
        }
        // Closed, the node released its directories: it starts again on them.
        StartCommand.startNode(NodeConfigs.load(config), config).close();
    }

    @Test
    void startsANodeWithAPlaintextAndAnSslListener() throws Exception {
        int clientPort = freePort();
        int sslPort = freePort();
        int controllerPort = freePort();
        TestCertificates certs = TestCertificates.create(Files.createDirectories(root.resolve("certs")));
        Path config = config("broker,controller", clientPort, controllerPort);
        Files.writeString(config, Files.readString(config).replace(",CONTROLLER://", ",SSL://localhost:" + sslPort
                + ",CONTROLLER://")
                + "ssl.keystore.type=PKCS12\n"
                + "ssl.keystore.location=" + certs.brokerKeyStore() + "\n"
                + "ssl.keystore.password=" + TestCertificates.PASSWORD + "\n");
        assertEquals(0, CliRun.of("format", "-c", config.toString(), "-t", MetaProperties.randomUuid()).exitCode());
        StartCommand.RunningNode running = StartCommand.startNode(NodeConfigs.load(config), config);
        try {
            running.ready().get(30, TimeUnit.SECONDS);
            assertEquals("PLAINTEXT localhost:" + clientPort + ", SSL localhost:" + sslPort + ", CONTROLLER localhost:"
                    + controllerPort, running.listening());
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", "localhost:" + sslPort,
                    "security.protocol", "SSL", "ssl.truststore.type", "PKCS12",
                    "ssl.truststore.location", certs.trustStore().toString(),
                    "ssl.truststore.password", TestCertificates.PASSWORD))) {
                assertEquals(List.of(sslPort), admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream()
                        .map(Node::port).toList());
            }
        } finally {
            running.close();
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String failure) {
        await(failure).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(condition::getAsBoolean);
    }

    /** A port no other part of this test JVM was given, below the kernel's ephemeral range. */
    private static int freePort() throws Exception {
        return TestWaits.freePort();
    }
}
