package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Kafka 4.4's kafka-reassign-partitions and kafka-log-dirs, run as processes against a node with two log
 * directories started by {@code kraft-cli start}: a plan's {@code log_dirs} moves a replica to the other directory,
 * --verify reports it completed, and kafka-log-dirs describes the directories as {@code kraft-cli log-dirs} does.
 */
class KafkaLogDirToolsProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private NodeConfigFile node;
    private final ToolRunner tools = new ToolRunner(processes, WAIT);

    @Test
    void kafkasToolsMoveAReplicaBetweenLogDirectories() throws Exception {
        Path dirA = dataDir.resolve("node/a").toAbsolutePath();
        Path dirB = dataDir.resolve("node/b").toAbsolutePath();
        startNode(dirA, dirB);
        kafkaTool("org.apache.kafka.tools.TopicCommand", "--create", "--topic", "moving", "--partitions", "1",
                "--replication-factor", "1");
        String perf = runTool(JvmSpec.kafkaTool(nextName("ProducerPerformance"),
                "org.apache.kafka.tools.ProducerPerformance", "--topic", "moving", "--num-records", "2000",
                "--record-size", "200", "--throughput", "-1", "--producer-props", "bootstrap.servers=" + bootstrap(),
                "acks=all"));
        assertTrue(perf.contains("2000 records sent"), perf);

        Path from = Path.of(dirOf(kafkaLogDirs(), "moving-0", false).orElseThrow());
        Path to = from.equals(dirA) ? dirB : dirA;
        Path plan = Files.writeString(dataDir.resolve("plan.json"), "{\"version\":1,\"partitions\":[{\"topic\":"
                + "\"moving\",\"partition\":0,\"replicas\":[1],\"log_dirs\":[\"" + to + "\"]}]}");
        kafkaTool("org.apache.kafka.tools.reassign.ReassignPartitionsCommand", "--execute",
                "--reassignment-json-file", plan.toString());
        Awaitility.await("the replica moves to " + to).atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> Optional.of(to.toString()).equals(dirOf(kafkaLogDirs(), "moving-0", false)));
        String verified = kafkaTool("org.apache.kafka.tools.reassign.ReassignPartitionsCommand", "--verify",
                "--reassignment-json-file", plan.toString());
        assertTrue(verified.contains("moving-0-1") && verified.contains("completed"), verified);

        JsonNode kafkas = kafkaLogDirs();
        assertEquals(Optional.empty(), dirOf(kafkas, "moving-0", true), "no future replica is left: " + kafkas);
        // Kafka's tool lists a broker's directories in no set order; ours sorts them.
        assertEquals(byDirectory(kafkas), byDirectory(jsonLine(runTool(JvmSpec.kraftCli(nextName("kraft-log-dirs"),
                "log-dirs", "--bootstrap-server", bootstrap(), "--describe")))),
                "kraft-cli log-dirs gives what kafka-log-dirs does");
        String consumed = kafkaTool("org.apache.kafka.tools.consumer.ConsoleConsumer", "--topic", "moving",
                "--from-beginning", "--max-messages", "2000", "--timeout-ms", "30000");
        assertEquals(2000, consumed.lines().count() - consumed.lines().filter(l -> l.startsWith("Processed")).count(),
                "every record is read back after the move");
    }

    private void startNode(Path dirA, Path dirB) {
        String clusterId = MetaProperties.randomUuid();
        node = NodeConfigFile.combined(1, dataDir.resolve("node")).with("log.dirs", dirA + "," + dirB);
        Path config = node.write();
        for (Path dir : List.of(dirA, dirB, node.dataDir().resolve("metadata"))) {
            MetaProperties.forNewDirectory(clusterId, 1).write(dir);
        }
        processes.start(JvmSpec.kraftCli("node-1", "start", "--config", config.toString()))
                .waitForLogLine("kraft node 1 ready", WAIT);
    }

    private String bootstrap() {
        return "127.0.0.1:" + node.brokerPort();
    }

    /** kafka-log-dirs --describe's JSON. */
    private JsonNode kafkaLogDirs() throws Exception {
        return jsonLine(kafkaTool("org.apache.kafka.tools.LogDirsCommand", "--describe"));
    }

    private static JsonNode jsonLine(String output) throws Exception {
        return JSON.readTree(output.lines().filter(line -> line.startsWith("{")).findFirst().orElseThrow(
                () -> new AssertionError("no JSON in " + output)));
    }

    /** The JSON of kafka-log-dirs with each broker's directories keyed by path. */
    private static Map<Integer, Map<String, JsonNode>> byDirectory(JsonNode logDirs) {
        Map<Integer, Map<String, JsonNode>> brokers = new TreeMap<>();
        for (JsonNode broker : logDirs.get("brokers")) {
            Map<String, JsonNode> dirs = brokers.computeIfAbsent(broker.get("broker").intValue(), b -> new TreeMap<>());
            broker.get("logDirs").forEach(dir -> dirs.put(dir.get("logDir").asText(), dir));
        }
        return brokers;
    }

    /** The log directory in which the JSON lists the partition's replica (its future replica if {@code future}). */
    private static Optional<String> dirOf(JsonNode logDirs, String partition, boolean future) {
        for (JsonNode broker : logDirs.get("brokers")) {
            for (JsonNode dir : broker.get("logDirs")) {
                for (JsonNode replica : dir.get("partitions")) {
                    if (replica.get("partition").asText().equals(partition)
                            && replica.get("isFuture").asBoolean() == future) {
                        return Optional.of(dir.get("logDir").asText());
                    }
                }
            }
        }
        return Optional.empty();
    }

    private String kafkaTool(String mainClass, String... args) {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", bootstrap()));
        all.addAll(List.of(args));
        return runTool(JvmSpec.kafkaTool(nextName(mainClass.substring(mainClass.lastIndexOf('.') + 1)), mainClass,
                all.toArray(String[]::new)));
    }

    private String runTool(JvmSpec spec) {
        return tools.run(spec);
    }

    private String nextName(String tool) {
        return tools.nextName(tool);
    }
}
