package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kraft-cli configs --entity-type users|clients}: client quotas set, described and deleted, printing what
 * Kafka's own kafka-configs.sh (its ConfigCommand, run in this JVM) prints against the same node.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuotaConfigsCommandTest {
    private static final String KAFKA_TOOL = "org.apache.kafka.tools.ConfigCommand";
    private ClientNode node;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        node = new ClientNode(dir);
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private CliRun configs(String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "configs";
        full[1] = "--bootstrap-server";
        full[2] = node.bootstrap();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    @Test
    void setsDescribesAndDeletesQuotasAsKafkasToolDoes() throws Exception {
        CliRun alter = configs("--entity-type", "users", "--entity-name", "alice", "--alter", "--add-config",
                "producer_byte_rate=1048576,consumer_byte_rate=2097152");
        assertEquals(0, alter.exitCode(), alter.err());
        assertEquals("Completed updating config for user alice." + System.lineSeparator(), alter.out());
        CliRun defaults = configs("--entity-type", "clients", "--entity-default", "--alter", "--add-config",
                "producer_byte_rate=4096");
        assertEquals(0, defaults.exitCode(), defaults.err());
        assertEquals("Completed updating default config for clients in the cluster." + System.lineSeparator(),
                defaults.out());

        String[] describeAlice = {"--entity-type", "users", "--entity-name", "alice", "--describe"};
        CliRun ours = configs(describeAlice);
        assertEquals(0, ours.exitCode(), ours.err());
        assertEquals("Quota configs for user-principal 'alice' are consumer_byte_rate=2097152.0, "
                + "producer_byte_rate=1048576.0" + System.lineSeparator(), ours.out());
        // (Kafka's tool describes users together with their SCRAM credentials, so it is compared on clients.)
        String[] describeDefaultClient = {"--entity-type", "clients", "--entity-default", "--describe"};
        CliRun defaultClients = configs(describeDefaultClient);
        assertEquals("Quota configs for the default client-id are producer_byte_rate=4096.0"
                + System.lineSeparator(), defaultClients.out());
        KafkaTool.Ran kafka = KafkaTool.run(KAFKA_TOOL, node.bootstrap(), describeDefaultClient);
        assertEquals(0, kafka.exitCode(), kafka.out());
        assertEquals(defaultClients.out().strip(), kafka.out().strip());

        // Kafka's tool alters through the same API; ours sees the change.
        KafkaTool.Ran kafkaAlter = KafkaTool.run(KAFKA_TOOL, node.bootstrap(), "--entity-type", "users",
                "--entity-name", "alice", "--alter", "--delete-config", "consumer_byte_rate");
        assertEquals(0, kafkaAlter.exitCode(), kafkaAlter.out());
        assertEquals("Quota configs for user-principal 'alice' are producer_byte_rate=1048576.0"
                + System.lineSeparator(), configs(describeAlice).out());
        assertEquals(0, configs("--entity-type", "users", "--entity-name", "alice", "--alter", "--delete-config",
                "producer_byte_rate").exitCode());
        assertEquals("", configs(describeAlice).out(), "no quotas left for alice");
    }

    @Test
    void badKeysAndValuesAreOneLineErrors() {
        CliRun badKey = configs("--entity-type", "clients", "--entity-name", "app", "--alter", "--add-config",
                "producer_bytes_rate=10");
        assertEquals(KraftCli.EXIT_FAILURE, badKey.exitCode(), badKey.out());
        assertTrue(badKey.err().startsWith("Error: ") && badKey.err().contains("producer_bytes_rate"), badKey.err());
        assertEquals(1, badKey.err().lines().count(), badKey.err());
        CliRun notNumber = configs("--entity-type", "clients", "--entity-name", "app", "--alter", "--add-config",
                "producer_byte_rate=fast");
        assertEquals(KraftCli.EXIT_USAGE, notNumber.exitCode(), notNumber.err());
        assertTrue(notNumber.err().contains("Cannot parse quota configuration value"), notNumber.err());
    }
}
