package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Kafka's own {@code kafka-leader-election}, {@code kafka-reassign-partitions} and {@code kafka-log-dirs}
 * (their main classes from kafka-tools 4.4, run by {@link KafkaTool}) against a node, beside ours with the same arguments: the same
 * outcome and the same lines.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaToolsParityTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private ClientNode node;
    private Path dir;

    @BeforeAll
    void start(@TempDir Path tempDir) throws Exception {
        dir = tempDir;
        node = new ClientNode(tempDir.resolve("node"));
        assertEquals(0, ours("topics", "--create", "--topic", "parity", "--partitions", "2").exitCode());
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private KafkaTool.Ran ours(String command, String... args) {
        String[] full = new String[args.length + 3];
        full[0] = command;
        full[1] = "--bootstrap-server";
        full[2] = node.bootstrap();
        System.arraycopy(args, 0, full, 3, args.length);
        CliRun run = CliRun.of(full);
        return new KafkaTool.Ran(run.exitCode(), run.out());
    }

    /** Runs Kafka's tool's main class in this JVM, its standard output captured. */
    private KafkaTool.Ran kafka(String mainClass, String... args) throws Exception {
        return KafkaTool.run(mainClass, node.bootstrap(), args);
    }

    @Test
    void leaderElectionPrintsWhatKafkasToolPrints() throws Exception {
        String tool = "org.apache.kafka.tools.LeaderElectionCommand";
        String[] notNeeded = {"--election-type", "preferred", "--topic", "parity", "--partition", "0"};
        KafkaTool.Ran kafka = kafka(tool, notNeeded);
        KafkaTool.Ran ours = ours("leader-election", notNeeded);
        assertEquals(kafka, ours);
        assertEquals(List.of("Valid replica already elected for partitions parity-0"), ours.lines());

        String[] all = {"--election-type", "unclean", "--all-topic-partitions"};
        assertEquals(kafka(tool, all), ours("leader-election", all));

        String[] missing = {"--election-type", "preferred", "--topic", "parity", "--partition", "9"};
        KafkaTool.Ran kafkaMissing = kafka(tool, missing);
        KafkaTool.Ran ourMissing = ours("leader-election", missing);
        assertEquals(kafkaMissing.exitCode(), ourMissing.exitCode());
        String prefix = "Error completing leader election (PREFERRED) for partition: parity-9: ";
        assertTrue(kafkaMissing.out().startsWith(prefix), kafkaMissing.out());
        assertTrue(ourMissing.out().startsWith(prefix), ourMissing.out());
    }

    @Test
    void kafkaClusterToolPrintsTheClusterIdAndUnregistersAsOursDoes() throws Exception {
        String tool = "org.apache.kafka.tools.ClusterTool";
        KafkaTool.Ran kafkaId = KafkaTool.runArgs(tool, "cluster-id", "--bootstrap-server", node.bootstrap());
        CliRun ourId = CliRun.of("cluster", "cluster-id", "--bootstrap-server", node.bootstrap());
        assertEquals(kafkaId, new KafkaTool.Ran(ourId.exitCode(), ourId.out()));

        KafkaTool.Ran kafkaUnknown = KafkaTool.runArgs(tool, "unregister", "--bootstrap-server", node.bootstrap(),
                "--id", "77");
        CliRun ourUnknown = CliRun.of("cluster", "unregister", "--bootstrap-server", node.bootstrap(), "--id", "77");
        assertEquals(1, kafkaUnknown.exitCode(), kafkaUnknown.out());
        assertEquals(kafkaUnknown.exitCode(), ourUnknown.exitCode());
    }

    @Test
    void logDirsPrintsTheJsonKafkasToolPrints() throws Exception {
        String[] args = {"--describe", "--topic-list", "parity"};
        KafkaTool.Ran kafka = kafka("org.apache.kafka.tools.LogDirsCommand", args);
        KafkaTool.Ran ours = ours("log-dirs", args);
        assertEquals(0, kafka.exitCode(), kafka.out());
        assertEquals(kafka.exitCode(), ours.exitCode());
        assertEquals(kafka.lines().subList(0, 2), ours.lines().subList(0, 2));
        JsonNode kafkaJson = JSON.readTree(kafka.lines().get(2));
        assertEquals(kafkaJson, JSON.readTree(ours.lines().get(2)));
        assertEquals("parity-0", kafkaJson.get("brokers").get(0).get("logDirs").get(0).get("partitions").get(0)
                .get("partition").asText());
    }

    @Test
    void reassignPartitionsExecutesVerifiesAndCancelsAsKafkasToolDoes() throws Exception {
        String tool = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand";
        Path plan = Files.writeString(dir.resolve("plan.json"), "{\"version\":1,\"partitions\":["
                + "{\"topic\":\"parity\",\"partition\":0,\"replicas\":[1],\"log_dirs\":[\"any\"]},"
                + "{\"topic\":\"parity\",\"partition\":1,\"replicas\":[1],\"log_dirs\":[\"any\"]}]}");
        String[] execute = {"--execute", "--reassignment-json-file", plan.toString(), "--throttle", "50000000"};
        KafkaTool.Ran kafkaExecute = kafka(tool, execute);
        KafkaTool.Ran ourExecute = ours("reassign-partitions", execute);
        assertEquals(0, kafkaExecute.exitCode(), kafkaExecute.out());
        assertEquals(0, ourExecute.exitCode(), ourExecute.out());
        assertEquals(withJsonParsed(kafkaExecute.lines()), withJsonParsed(ourExecute.lines()));

        String[] verify = {"--verify", "--reassignment-json-file", plan.toString()};
        KafkaTool.Ran kafkaVerify = kafka(tool, verify);
        KafkaTool.Ran ourVerify = ours("reassign-partitions", verify);
        assertEquals(0, kafkaVerify.exitCode(), kafkaVerify.out());
        assertEquals(kafkaVerify.exitCode(), ourVerify.exitCode());
        // Both then clear the replication throttles --execute --throttle set; ours adds a line of progress.
        assertEquals(kafkaVerify.lines().subList(0, 3), ourVerify.lines().subList(0, 3));
        assertTrue(kafkaVerify.out().contains("Clearing broker-level throttles on broker 1"), kafkaVerify.out());
        assertEquals(kafkaVerify.lines().stream().filter(line -> line.startsWith("Clearing")).toList(),
                ourVerify.lines().stream().filter(line -> line.startsWith("Clearing")).toList());

        String[] cancel = {"--cancel", "--reassignment-json-file", plan.toString()};
        KafkaTool.Ran kafkaCancel = kafka(tool, cancel);
        KafkaTool.Ran ourCancel = ours("reassign-partitions", cancel);
        assertEquals(kafkaCancel.exitCode(), ourCancel.exitCode());
        // Kafka's tool goes on about moves between log directories and throttles, which ours does not make.
        assertEquals(kafkaCancel.lines().get(0), ourCancel.lines().get(0));
        assertEquals(List.of("None of the specified partition reassignments are active."), ourCancel.lines());
    }

    private static List<Object> withJsonParsed(List<String> lines) {
        return lines.stream().map(line -> {
            try {
                return line.startsWith("{") ? (Object) JSON.readTree(line) : line;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }).toList();
    }
}
