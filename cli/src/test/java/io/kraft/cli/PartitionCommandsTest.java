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

/**
 * {@code kraft-cli leader-election} and {@code kraft-cli reassign-partitions} against an in-process node: Kafka's
 * output lines, JSON plans, errors and exit codes. Moves between brokers are tested on three brokers in the server
 * module; one node still runs every path of the commands.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartitionCommandsTest {
    private static final String NL = System.lineSeparator();
    private ClientNode node;
    private Path dir;

    @BeforeAll
    void start(@TempDir Path tempDir) throws Exception {
        dir = tempDir;
        node = new ClientNode(tempDir.resolve("node"));
        assertEquals(0, CliRun.of("topics", "--bootstrap-server", node.bootstrap(), "--create", "--topic", "orders",
                "--partitions", "2").exitCode());
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private CliRun run(String command, String... args) {
        String[] full = new String[args.length + 3];
        full[0] = command;
        full[1] = "--bootstrap-server";
        full[2] = node.bootstrap();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    private Path file(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void leaderElectionReportsEachPartitionAsKafkasToolDoes() throws Exception {
        CliRun notNeeded = run("leader-election", "--election-type", "preferred", "--topic", "orders",
                "--partition", "0");
        assertEquals(0, notNeeded.exitCode(), notNeeded.err());
        assertEquals("Valid replica already elected for partitions orders-0" + NL, notNeeded.out());

        CliRun all = run("leader-election", "--election-type", "PREFERRED", "--all-topic-partitions");
        assertEquals(0, all.exitCode(), all.err());
        assertEquals("", all.out(), "every partition led by its preferred replica: nothing to elect");

        Path json = file("election.json", "{\"partitions\": [{\"topic\": \"orders\", \"partition\": 1},"
                + " {\"topic\": \"orders\", \"partition\": 7}]}");
        CliRun mixed = run("leader-election", "--election-type", "unclean", "--path-to-json-file", json.toString());
        assertEquals(KraftCli.EXIT_FAILURE, mixed.exitCode());
        List<String> lines = mixed.out().lines().toList();
        assertEquals("Valid replica already elected for partitions orders-1", lines.get(0));
        assertTrue(lines.get(1).startsWith("Error completing leader election (UNCLEAN) for partition: orders-7: "),
                mixed.out());
        assertEquals("Error: 1 replica(s) could not be elected" + NL, mixed.err());
    }

    @Test
    void leaderElectionRefusesContradictoryOptions() throws Exception {
        assertUsageError(run("leader-election", "--all-topic-partitions"), "--election-type");
        assertUsageError(run("leader-election", "--election-type", "dirty", "--all-topic-partitions"),
                "preferred or unclean");
        assertUsageError(run("leader-election", "--election-type", "preferred", "--all-topic-partitions",
                "--topic", "orders", "--partition", "0"), "Exactly one of");
        assertUsageError(run("leader-election", "--election-type", "preferred", "--topic", "orders"),
                "--topic and --partition go together");
        Path duplicates = file("dup.json", "{\"partitions\": [{\"topic\": \"orders\", \"partition\": 1},"
                + " {\"topic\": \"orders\", \"partition\": 1}]}");
        assertUsageError(run("leader-election", "--election-type", "preferred", "--path-to-json-file",
                duplicates.toString()), "duplicate partitions: orders-1");
        assertUsageError(run("leader-election", "--election-type", "preferred", "--path-to-json-file",
                file("bad.json", "{\"partitions\": [{\"topic\": 3}]}").toString()), "\"topic\"");
    }

    @Test
    void reassignPartitionsGeneratesExecutesVerifiesAndCancels() throws Exception {
        Path topics = file("topics.json", "{\"version\": 1, \"topics\": [{\"topic\": \"orders\"}]}");
        CliRun generated = run("reassign-partitions", "--generate", "--topics-to-move-json-file", topics.toString(),
                "--broker-list", "1");
        assertEquals(0, generated.exitCode(), generated.err());
        String plan = "{\"version\":1,\"partitions\":[{\"topic\":\"orders\",\"partition\":0,\"replicas\":[1],"
                + "\"log_dirs\":[\"any\"]},{\"topic\":\"orders\",\"partition\":1,\"replicas\":[1],"
                + "\"log_dirs\":[\"any\"]}]}";
        assertEquals("Current partition replica assignment" + NL + plan + NL + NL
                + "Proposed partition reassignment configuration" + NL + plan + NL, generated.out());

        Path planFile = file("plan.json", plan);
        CliRun executed = run("reassign-partitions", "--execute", "--reassignment-json-file", planFile.toString());
        assertEquals(0, executed.exitCode(), executed.err());
        // The rollback plan names each replica's current log directory, as Kafka's tool does.
        String rollback = plan.replace("\"any\"", com.fasterxml.jackson.databind.node.TextNode.valueOf(
                node.logDir().toAbsolutePath().toString()).toString());
        assertEquals("Current partition replica assignment" + NL + NL + rollback + NL + NL
                + "Save this to use as the --reassignment-json-file option during rollback" + NL
                + "Successfully started partition reassignments for orders-0,orders-1" + NL, executed.out());
        CliRun rolledBack = run("reassign-partitions", "--execute", "--reassignment-json-file",
                file("rollback.json", rollback).toString());
        assertEquals(0, rolledBack.exitCode(), rolledBack.err());

        CliRun verified = run("reassign-partitions", "--verify", "--reassignment-json-file", planFile.toString());
        assertEquals(0, verified.exitCode(), verified.err());
        assertEquals("Status of partition reassignment:" + NL + "Reassignment of partition orders-0 is completed."
                + NL + "Reassignment of partition orders-1 is completed." + NL + "2 of 2 partitions done." + NL
                + "Clearing broker-level throttles on broker 1" + NL + "Clearing topic-level throttles on topic orders"
                + NL, verified.out());

        CliRun cancelled = run("reassign-partitions", "--cancel", "--reassignment-json-file", planFile.toString());
        assertEquals(0, cancelled.exitCode(), cancelled.err());
        assertEquals("None of the specified partition reassignments are active." + NL, cancelled.out());
    }

    @Test
    void reassignPartitionsReportsRefusalsAndBadPlans() throws Exception {
        Path unknownBroker = file("far.json", "{\"version\":1,\"partitions\":[{\"topic\":\"orders\",\"partition\":0,"
                + "\"replicas\":[7]}]}");
        CliRun refused = run("reassign-partitions", "--execute", "--reassignment-json-file", unknownBroker.toString());
        assertEquals(KraftCli.EXIT_FAILURE, refused.exitCode());
        assertTrue(refused.out().contains("Error reassigning partition(s):" + NL + "orders-0: "), refused.out());
        assertTrue(refused.out().contains("broker 7"), refused.out());
        assertEquals("Error: 1 partition(s) could not be changed" + NL, refused.err());

        Path missing = file("missing.json", "{\"version\":1,\"partitions\":[{\"topic\":\"nowhere\",\"partition\":0,"
                + "\"replicas\":[1]}]}");
        CliRun noTopic = run("reassign-partitions", "--execute", "--reassignment-json-file", missing.toString());
        assertEquals(KraftCli.EXIT_FAILURE, noTopic.exitCode());
        assertTrue(noTopic.err().startsWith("Error: ") && noTopic.err().contains("nowhere"), noTopic.err());

        Path topics = file("topics2.json", "{\"version\": 1, \"topics\": [{\"topic\": \"orders\"}]}");
        assertEquals(KraftCli.EXIT_FAILURE, run("reassign-partitions", "--generate", "--topics-to-move-json-file",
                topics.toString(), "--broker-list", "1,9").exitCode());
        assertUsageError(run("reassign-partitions", "--execute", "--verify", "--reassignment-json-file",
                missing.toString()), "Exactly one of");
        assertUsageError(run("reassign-partitions", "--generate", "--broker-list", "1"),
                "--topics-to-move-json-file");
        CliRun otherDir = run("reassign-partitions", "--execute", "--reassignment-json-file",
                file("dirs.json", "{\"version\":1,\"partitions\":[{\"topic\":\"orders\",\"partition\":0,"
                        + "\"replicas\":[1],\"log_dirs\":[\"/data\"]}]}").toString());
        assertEquals(KraftCli.EXIT_FAILURE, otherDir.exitCode());
        assertEquals("Error: 1 replica(s) could not be moved between log directories" + NL, otherDir.err());
        assertTrue(otherDir.out().contains("Error moving replica(s) between log directories:" + NL + "orders-0-1: "),
                otherDir.out());
        assertUsageError(run("reassign-partitions", "--verify", "--reassignment-json-file",
                file("dirs2.json", "{\"version\":1,\"partitions\":[{\"topic\":\"orders\",\"partition\":0,"
                        + "\"replicas\":[1],\"log_dirs\":[\"any\",\"any\"]}]}").toString()), "one entry per replica");
        assertUsageError(run("reassign-partitions", "--cancel", "--reassignment-json-file",
                file("notjson.json", "{not json").toString()), "not valid JSON");
    }

    @Test
    void logDirsDescribesEachBrokersDirectoriesAsKafkasJson() throws Exception {
        CliRun described = run("log-dirs", "--describe", "--topic-list", "orders");
        assertEquals(0, described.exitCode(), described.err());
        List<String> lines = described.out().lines().toList();
        assertEquals("Querying brokers for log directories information", lines.get(0));
        assertEquals("Received log directory information from brokers 1", lines.get(1));
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(lines.get(2));
        assertEquals(1, json.get("version").intValue());
        com.fasterxml.jackson.databind.JsonNode broker = json.get("brokers").get(0);
        assertEquals(1, broker.get("broker").intValue());
        com.fasterxml.jackson.databind.JsonNode dir = broker.get("logDirs").get(0);
        assertTrue(dir.get("error").isNull(), lines.get(2));
        assertTrue(dir.get("logDir").asText().endsWith("logs"), lines.get(2));
        assertEquals("orders-0", dir.get("partitions").get(0).get("partition").asText());
        assertEquals("orders-1", dir.get("partitions").get(1).get("partition").asText());
        assertEquals(0, dir.get("partitions").get(0).get("offsetLag").longValue());
        assertTrue(dir.get("partitions").get(0).has("size") && !dir.get("partitions").get(0).get("isFuture")
                .booleanValue(), lines.get(2));

        CliRun none = run("log-dirs", "--describe", "--topic-list", "nothing-here", "--broker-list", "1");
        assertEquals(0, none.exitCode(), none.err());
        assertTrue(none.out().contains("\"partitions\":[]"), none.out());
        assertUsageError(run("log-dirs"), "--describe");
    }

    private static void assertUsageError(CliRun run, String contained) {
        assertEquals(KraftCli.EXIT_USAGE, run.exitCode(), run.out() + run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("Error: ") && run.err().contains(contained), run.err());
    }
}
