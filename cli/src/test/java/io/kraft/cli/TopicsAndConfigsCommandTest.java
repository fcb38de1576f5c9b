package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** {@code kraft-cli topics} and {@code kraft-cli configs} against an in-process node: output, errors, exit codes. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TopicsAndConfigsCommandTest {
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

    private CliRun topics(String... args) {
        return run("topics", args);
    }

    private CliRun configs(String... args) {
        return run("configs", args);
    }

    private CliRun run(String command, String... args) {
        String[] full = new String[args.length + 3];
        full[0] = command;
        full[1] = "--bootstrap-server";
        full[2] = node.bootstrap();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    private static void assertSucceeds(CliRun run) {
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
    }

    private static void assertOneLineError(CliRun run, String contained) {
        assertEquals(KraftCli.EXIT_FAILURE, run.exitCode(), run.out());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("Error: "), run.err());
        assertTrue(run.err().contains(contained), run.err());
    }

    private static void assertUsage(CliRun run, String contained) {
        assertEquals(KraftCli.EXIT_USAGE, run.exitCode(), run.err());
        assertTrue(run.err().contains(contained), run.err());
        assertTrue(run.err().contains("Usage: kraft-cli"), run.err());
    }

    @Test
    void createsListsDescribesAltersAndDeletesTopics() {
        CliRun created = topics("--create", "--topic", "orders", "--partitions", "3", "--replication-factor", "1",
                "--config", "cleanup.policy=compact", "--config", "retention.ms=60000");
        assertSucceeds(created);
        assertEquals("Created topic orders." + System.lineSeparator(), created.out());
        assertSucceeds(topics("--create", "--topic", "payments"));

        CliRun listed = topics("--list");
        assertSucceeds(listed);
        List<String> names = listed.out().lines().toList();
        assertTrue(names.indexOf("orders") >= 0 && names.indexOf("orders") < names.indexOf("payments"), listed.out());

        CliRun described = topics("--describe", "--topic", "orders");
        assertSucceeds(described);
        List<String> lines = described.out().lines().toList();
        assertEquals(4, lines.size(), described.out());
        assertTrue(lines.get(0).matches("Topic: orders\tTopicId: [A-Za-z0-9_-]{22}\tPartitionCount: 3\t"
                + "ReplicationFactor: 1\tConfigs: .*"), lines.get(0));
        assertTrue(lines.get(0).contains("cleanup.policy=compact"), lines.get(0));
        assertTrue(lines.get(0).contains("retention.ms=60000"), lines.get(0));
        assertEquals("\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ", lines.get(1));
        assertEquals("\tTopic: orders\tPartition: 2\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ", lines.get(3));
        assertTrue(topics("--describe").out().contains("Topic: payments\t"));

        assertSucceeds(topics("--alter", "--topic", "orders", "--partitions", "5"));
        assertTrue(topics("--describe", "--topic", "orders").out().contains("PartitionCount: 5"));

        assertSucceeds(topics("--delete", "--topic", "payments"));
        assertTrue(topics("--list").out().lines().noneMatch("payments"::equals));
        assertSucceeds(topics("--delete", "--topic", "payments", "--if-exists"));
    }

    @Test
    void reportsTopicErrorsOnOneLine() {
        assertSucceeds(topics("--create", "--topic", "taken"));
        assertOneLineError(topics("--create", "--topic", "taken"), "already exists");
        assertSucceeds(topics("--create", "--topic", "taken", "--if-not-exists"));
        assertOneLineError(topics("--create", "--topic", "bad/name"), "bad/name");
        assertOneLineError(topics("--create", "--topic", "wide", "--replication-factor", "3"), "Replication factor 3");
        assertOneLineError(topics("--create", "--topic", "empty", "--partitions", "0"), "partitions");
        assertOneLineError(topics("--create", "--topic", "odd", "--config", "retention.ms=soon"), "retention.ms");
        assertOneLineError(topics("--alter", "--topic", "taken", "--partitions", "1"), "partitions");
        assertOneLineError(topics("--describe", "--topic", "nowhere"), "Topic 'nowhere' does not exist");
        assertOneLineError(topics("--delete", "--topic", "nowhere"), "Topic 'nowhere' does not exist");
    }

    @Test
    void wrongFlagsGetTheUsageMessage() {
        assertUsage(topics("--create"), "--topic is required with --create");
        assertUsage(topics("--list", "--describe"), "mutually exclusive");
        assertUsage(topics("--list", "--partitions", "3"), "--partitions is only valid");
        assertUsage(topics("--alter", "--topic", "x"), "--alter needs --partitions");
        assertUsage(topics("--create", "--topic", "x", "--config", "novalue"), "expected key=value");
        assertUsage(CliRun.of("topics", "--list"), "--bootstrap-server");
        assertUsage(configs("--entity-type", "groups", "--entity-name", "g", "--describe"), "topics, brokers, broker-loggers or users");
        assertUsage(configs("--entity-type", "topics", "--entity-name", "t", "--alter"), "--add-config");
        assertUsage(configs("--entity-type", "topics", "--entity-default", "--describe"), "--entity-default");
    }

    @Test
    void describesAndAltersTopicConfigs() {
        assertSucceeds(topics("--create", "--topic", "tuned"));
        CliRun added = configs("--entity-type", "topics", "--entity-name", "tuned", "--alter",
                "--add-config", "retention.ms=1000,cleanup.policy=[compact,delete]");
        assertSucceeds(added);
        assertEquals("Completed updating config for topic tuned." + System.lineSeparator(), added.out());

        CliRun described = configs("--entity-type", "topics", "--entity-name", "tuned", "--describe");
        assertSucceeds(described);
        List<String> lines = described.out().lines().toList();
        assertEquals("Dynamic configs for topic tuned are:", lines.get(0));
        assertEquals(3, lines.size(), described.out());
        assertTrue(lines.contains("  cleanup.policy=compact,delete sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:"
                + "cleanup.policy=compact,delete, DEFAULT_CONFIG:log.cleanup.policy=delete}"), described.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("  retention.ms=1000 sensitive=false synonyms="
                + "{DYNAMIC_TOPIC_CONFIG:retention.ms=1000, ")), described.out());

        assertSucceeds(configs("--entity-type", "topics", "--entity-name", "tuned", "--alter",
                "--delete-config", "retention.ms"));
        CliRun all = configs("--entity-type", "topics", "--entity-name", "tuned", "--describe", "--all");
        assertSucceeds(all);
        assertEquals("All configs for topic tuned are:", all.out().lines().findFirst().orElseThrow());
        assertTrue(all.out().contains("  retention.ms=604800000 sensitive=false synonyms={DEFAULT_CONFIG:"
                + "log.retention.hours=168}"), all.out());

        assertOneLineError(configs("--entity-type", "topics", "--entity-name", "tuned", "--alter",
                "--add-config", "segment.bytes=tiny"), "segment.bytes");
        assertOneLineError(configs("--entity-type", "topics", "--entity-name", "tuned", "--alter",
                "--add-config", "no.such.config=1"), "no.such.config");
        assertOneLineError(configs("--entity-type", "topics", "--entity-name", "nowhere", "--describe"), "nowhere");
    }

    @Test
    void describesAndAltersBrokerConfigs() {
        CliRun setDefault = configs("--entity-type", "brokers", "--entity-default", "--alter",
                "--add-config", "log.retention.ms=3600000");
        assertSucceeds(setDefault);
        assertEquals("Completed updating default config for brokers in the cluster." + System.lineSeparator(),
                setDefault.out());
        CliRun defaults = configs("--entity-type", "brokers", "--entity-default", "--describe");
        assertSucceeds(defaults);
        assertEquals(List.of("Default configs for brokers in the cluster are:",
                        "  log.retention.ms=3600000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:"
                                + "log.retention.ms=3600000}"),
                defaults.out().lines().toList());

        assertSucceeds(configs("--entity-type", "brokers", "--entity-name", "1", "--alter",
                "--add-config", "log.segment.bytes=2097152"));
        CliRun broker = configs("--entity-type", "brokers", "--entity-name", "1", "--describe");
        assertSucceeds(broker);
        assertEquals("Dynamic configs for broker 1 are:", broker.out().lines().findFirst().orElseThrow());
        assertTrue(broker.out().contains("  log.segment.bytes=2097152 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:"
                + "log.segment.bytes=2097152, DEFAULT_CONFIG:log.segment.bytes=1073741824}"), broker.out());

        assertOneLineError(configs("--entity-type", "brokers", "--entity-name", "1", "--alter",
                "--add-config", "log.dirs=/elsewhere"), "log.dirs");
        assertSucceeds(configs("--entity-type", "brokers", "--entity-name", "1", "--alter",
                "--delete-config", "log.segment.bytes"));
        assertSucceeds(configs("--entity-type", "brokers", "--entity-default", "--alter",
                "--delete-config", "log.retention.ms"));
        assertEquals(List.of("Default configs for brokers in the cluster are:"),
                configs("--entity-type", "brokers", "--entity-default", "--describe").out().lines().toList());
    }

    @Test
    void commandConfigReachesTheAdminClient(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("admin.properties");
        Files.writeString(file, "default.api.timeout.ms=1500\nrequest.timeout.ms=1000\n");
        CliRun run = CliRun.of("topics", "--bootstrap-server", "localhost:1", "--list", "--command-config",
                file.toString());
        assertOneLineError(run, "Timed out");
    }
}
