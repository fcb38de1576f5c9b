package io.kraft.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.TestWaits;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.server.CombinedNode;
import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SCRAM from the command line as Kafka's tools do it: {@code format --add-scram} gives a new cluster its first admin,
 * {@code configs --entity-type users} adds, describes and deletes credentials over SASL, they survive a restart, and
 * {@code metadata-shell} shows them without their secrets.
 */
class ScramCommandsTest {
    private static final String CLUSTER_ID = MetaProperties.randomUuid();
    private static final long WAIT_MS = 30_000;
    private static final String SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    @TempDir
    Path dir;
    private CombinedNode node;
    private int saslPort;
    private int controllerPort;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private Path nodeConfig() throws Exception {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "process.roles=broker,controller\nnode.id=1\n"
                + "controller.quorum.voters=1@localhost:" + controllerPort + "\n"
                + "listeners=SASL_PLAINTEXT://localhost:" + saslPort + ",CONTROLLER://localhost:" + controllerPort + "\n"
                + "log.dirs=" + dir.resolve("logs") + "\nmetadata.log.dir=" + dir.resolve("metadata") + "\n"
                + "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=" + SCRAM_MODULE
                + " required username=\"admin\" password=\"admin-secret\";\n");
        return file;
    }

    private void startNode() throws Exception {
        Map<String, String> props = new HashMap<>();
        props.put("controller.quorum.voters", "1@localhost:" + controllerPort);
        props.put("log.dirs", dir.resolve("logs").toString());
        props.put("listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config", SCRAM_MODULE
                + " required username=\"admin\" password=\"admin-secret\";");
        node = CombinedNode.start(1, CLUSTER_ID, dir.resolve("metadata"), "SASL_PLAINTEXT://localhost:" + saslPort,
                props, new TopicConfigResolver(BrokerLogSettings.from(LogConfigs.definition().parse(Map.of(),
                        ConfigSource.STATIC_BROKER_CONFIG))));
        await().atMost(Duration.ofMillis(WAIT_MS)).until(node::isBrokerUnfenced);
    }

    private Path clientConfig(String user, String password) throws Exception {
        Path file = dir.resolve(user + ".properties");
        Files.writeString(file, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\n"
                + "sasl.jaas.config=" + SCRAM_MODULE + " required username=\"" + user + "\" password=\"" + password
                + "\";\n");
        return file;
    }

    private CliRun users(String... args) throws Exception {
        String[] full = new String[args.length + 7];
        System.arraycopy(new String[] {"configs", "--bootstrap-server", "localhost:" + saslPort, "--command-config",
            clientConfig("admin", "admin-secret").toString(), "--entity-type", "users"}, 0, full, 0, 7);
        System.arraycopy(args, 0, full, 7, args.length);
        return CliRun.of(full);
    }

    private boolean logsIn(String user, String password) throws Exception {
        Map<String, Object> config = new HashMap<>(Map.of("bootstrap.servers", "localhost:" + saslPort,
                "security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-256",
                "sasl.jaas.config", SCRAM_MODULE + " required username=\"" + user + "\" password=\"" + password + "\";",
                "request.timeout.ms", "10000", "default.api.timeout.ms", "15000"));
        try (Admin admin = Admin.create(config)) {
            admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            assertInstanceOf(SaslAuthenticationException.class, e.getCause());
            return false;
        }
    }

    @Test
    void formatConfigsRestartAndShellHandleScramCredentials() throws Exception {
        saslPort = freePort();
        controllerPort = freePort();
        CliRun bad = CliRun.of("format", "-c", nodeConfig().toString(), "-t", CLUSTER_ID, "--add-scram",
                "SCRAM-SHA-256=[password=nameless]");
        assertEquals(KraftCli.EXIT_USAGE, bad.exitCode(), bad.err());
        assertTrue(bad.err().contains("needs name=..."), bad.err());
        assertFalse(Files.exists(dir.resolve("metadata")), "a refused format writes nothing");

        CliRun format = CliRun.of("format", "-c", nodeConfig().toString(), "-t", CLUSTER_ID,
                "--add-scram", "SCRAM-SHA-256=[name=admin,password=admin-secret]",
                "--add-scram", "SCRAM-SHA-512=[name=admin,password=\"admin,secret\",iterations=8192]");
        assertEquals(0, format.exitCode(), format.err());
        assertTrue(format.out().contains("Wrote 2 SCRAM credential(s) into the bootstrap records of "
                + dir.resolve("metadata")), format.out());
        List<MetadataRecord> bootstrap = BootstrapMetadata.read(dir.resolve("metadata")).stream()
                .filter(MetadataRecord::hasUserScramCredential).toList();
        assertEquals(2, bootstrap.size());
        assertEquals(8192, bootstrap.get(1).getUserScramCredential().getIterations());
        assertFalse(Files.readString(BootstrapMetadata.file(dir.resolve("metadata")),
                java.nio.charset.StandardCharsets.ISO_8859_1).contains("admin-secret"), "no password on disk");

        startNode();
        assertTrue(logsIn("admin", "admin-secret"), "format's admin logs in");
        CliRun added = users("--entity-name", "alice", "--alter", "--add-config",
                "SCRAM-SHA-256=[iterations=8192,password=alice-secret],SCRAM-SHA-512=[password=alice-secret]");
        assertEquals(0, added.exitCode(), added.err());
        assertEquals("Completed updating config for user alice.", added.out().strip());
        CliRun described = users("--entity-name", "alice", "--describe");
        assertEquals("SCRAM credential configs for user-principal 'alice' are SCRAM-SHA-256=iterations=8192,"
                + " SCRAM-SHA-512=iterations=4096", described.out().strip(), described.err());
        assertTrue(logsIn("alice", "alice-secret"));
        CliRun badIterations = users("--entity-name", "bob", "--alter", "--add-config",
                "SCRAM-SHA-256=[iterations=100,password=pw]");
        assertEquals(KraftCli.EXIT_USAGE, badIterations.exitCode());
        assertTrue(badIterations.err().contains("iterations of SCRAM-SHA-256 must be from 4096 to 16384"),
                badIterations.err());
        CliRun deleteMissing = users("--entity-name", "bob", "--alter", "--delete-config", "SCRAM-SHA-256");
        assertEquals(KraftCli.EXIT_FAILURE, deleteMissing.exitCode());
        assertTrue(deleteMissing.err().contains("does not exist"), deleteMissing.err());

        node.close();
        node = null;
        startNode();
        assertTrue(logsIn("alice", "alice-secret"), "alice's credential survived the restart");
        CliRun deleted = users("--entity-name", "alice", "--alter", "--delete-config", "SCRAM-SHA-256");
        assertEquals(0, deleted.exitCode(), deleted.err());
        assertFalse(logsIn("alice", "alice-secret"));
        node.close();
        node = null;

        CliRun list = CliRun.of("metadata-shell", "--directory", dir.resolve("metadata").toString(), "ls",
                "/scram/SCRAM-SHA-512");
        assertEquals(List.of("admin", "alice"), list.out().lines().sorted().toList(), list.err());
        CliRun cat = CliRun.of("metadata-shell", "--directory", dir.resolve("metadata").toString(), "cat",
                "/scram/SCRAM-SHA-512/admin");
        assertEquals("{\"iterations\": 8192}", cat.out().strip(), cat.err());
        CliRun dump = CliRun.of("metadata-shell", "--directory", dir.resolve("metadata").toString(), "--dump-log");
        assertTrue(dump.out().contains("USER_SCRAM_CREDENTIAL name=\"admin\" mechanism=SCRAM_SHA_256 salt=<32 bytes>"),
                dump.out());
        assertTrue(dump.out().contains("REMOVE_USER_SCRAM_CREDENTIAL name=\"alice\" mechanism=SCRAM_SHA_256"),
                dump.out());
        assertFalse(dump.out().contains("secret"), "no password, salted or not, in the log");
        assertEquals(2, dump.out().lines().filter(line -> line.contains("USER_SCRAM_CREDENTIAL name=\"admin\""))
                .count(), "the bootstrap records are appended once, not again after the restart");
    }

    /** A port no other part of this test JVM was given, below the kernel's ephemeral range. */
    private static int freePort() throws Exception {
        return TestWaits.freePort();
    }
}
