package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Kafka 4.4's own command-line tools, run as the processes operators run, against three combined nodes started
 * by {@code kraft-cli start}: each command's exit status and output are what the tool gives against Kafka.
 */
class KafkaToolsProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final List<Integer> NODES = List.of(1, 2, 3);

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private final Map<Integer, NodeConfigFile> nodes = new TreeMap<>();
    private final ToolRunner tools = new ToolRunner(processes, WAIT);

    @Test
    void kafkasToolsWorkAgainstTheCluster() throws Exception {
        startCluster();

        // kafka-topics: create, list, describe, alter, delete
        tool("org.apache.kafka.tools.TopicCommand", "--create", "--topic", "orders", "--partitions", "3",
                "--replication-factor", "3", "--config", "min.insync.replicas=2");
        assertTrue(tool("org.apache.kafka.tools.TopicCommand", "--list").lines().anyMatch("orders"::equals));
        String described = tool("org.apache.kafka.tools.TopicCommand", "--describe", "--topic", "orders");
        assertTrue(described.contains("PartitionCount: 3") && described.contains("ReplicationFactor: 3"), described);
        assertTrue(described.contains("min.insync.replicas=2"), described);
        tool("org.apache.kafka.tools.TopicCommand", "--alter", "--topic", "orders", "--partitions", "4");
        assertTrue(tool("org.apache.kafka.tools.TopicCommand", "--describe", "--topic", "orders")
                .contains("PartitionCount: 4"));

        // kafka-configs: a topic's config, and a dynamic cluster-wide broker default
        tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "topics", "--entity-name", "orders",
                "--alter", "--add-config", "retention.ms=86400000");
        assertTrue(tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "topics", "--entity-name", "orders",
                "--describe").contains("retention.ms=86400000"));
        tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "brokers", "--entity-default", "--alter",
                "--add-config", "log.retention.ms=604800000");
        assertTrue(tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "brokers", "--entity-default",
                "--describe").contains("log.retention.ms=604800000"));
        // and a node's log levels, changed at run time
        int loggerNode = NODES.get(0);
        tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "broker-loggers", "--entity-name",
                String.valueOf(loggerNode), "--alter", "--add-config", "kafka.request.logger=DEBUG");
        assertTrue(tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "broker-loggers", "--entity-name",
                String.valueOf(loggerNode), "--describe").contains("kafka.request.logger=DEBUG"));
        // a user's SCRAM credential and client quota, and a client id's quota
        tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "users", "--entity-name", "alice", "--alter",
                "--add-config", "SCRAM-SHA-256=[iterations=8192,password=alice-secret]");
        tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "users", "--entity-name", "alice", "--alter",
                "--add-config", "producer_byte_rate=1048576");
        String alice = tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "users", "--entity-name", "alice",
                "--describe");
        assertTrue(alice.contains("producer_byte_rate=1048576.0") && alice.contains("SCRAM-SHA-256=iterations=8192"),
                alice);
        tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "clients", "--entity-default", "--alter",
                "--add-config", "consumer_byte_rate=2097152");
        assertTrue(tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "clients", "--entity-default",
                "--describe").contains("consumer_byte_rate=2097152.0"));
        tool("org.apache.kafka.tools.ConfigCommand", "--entity-type", "clients", "--entity-default", "--alter",
                "--delete-config", "consumer_byte_rate");

        // kafka-console-producer and -consumer
        Path input = Files.writeString(dataDir.resolve("input.txt"),
                "k1:one\nk2:two\nk3:three\nk4:four\nk5:five\n");
        runTool(JvmSpec.kafkaTool(nextName("console-producer"), "org.apache.kafka.tools.ConsoleProducer",
                "--bootstrap-server", bootstrap(), "--topic", "orders", "--property", "parse.key=true",
                "--property", "key.separator=:").withInput(input));
        String consumed = tool("org.apache.kafka.tools.consumer.ConsoleConsumer", "--topic", "orders",
                "--from-beginning", "--max-messages", "5", "--group", "tools", "--property", "print.key=true",
                "--property", "key.separator=:");
        assertEquals(List.of("k1:one", "k2:two", "k3:three", "k4:four", "k5:five"),
                consumed.lines().filter(l -> l.startsWith("k")).sorted().toList(), consumed);

        // kafka-get-offsets: the end offsets add up to what was produced
        String offsets = tool("org.apache.kafka.tools.GetOffsetShell", "--topic", "orders");
        long total = offsets.lines().filter(l -> l.startsWith("orders:"))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(':') + 1))).sum();
        assertEquals(5, total, offsets);

        // kafka-consumer-groups: list, describe, reset, delete offsets
        assertTrue(tool("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", "--list").lines()
                .anyMatch("tools"::equals));
        String group = tool("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", "--describe", "--group",
                "tools");
        assertTrue(group.contains("orders") && group.contains("LAG"), group);
        String reset = tool("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", "--reset-offsets",
                "--group", "tools", "--topic", "orders", "--to-earliest", "--execute");
        assertTrue(reset.contains("NEW-OFFSET"), reset);
        tool("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", "--delete-offsets", "--group", "tools",
                "--topic", "orders");

        // kafka-delete-records
        Path plan = Files.writeString(dataDir.resolve("delete.json"), "{\"partitions\":[{\"topic\":\"orders\","
                + "\"partition\":0,\"offset\":-1}],\"version\":1}");
        assertTrue(tool("org.apache.kafka.tools.DeleteRecordsCommand", "--offset-json-file", plan.toString())
                .contains("low_watermark"));

        // perf and verification tools
        String perf = tool("org.apache.kafka.tools.ProducerPerformance", "--topic", "orders", "--num-records",
                "2000", "--record-size", "100", "--throughput", "-1", "--producer-props", "bootstrap.servers="
                        + bootstrap(), "acks=all");
        assertTrue(perf.contains("2000 records sent"), perf);
        String verifiable = tool("org.apache.kafka.tools.VerifiableProducer", "--topic", "orders",
                "--max-messages", "100", "--acks", "-1");
        assertTrue(verifiable.contains("\"name\":\"shutdown_complete\"") && verifiable.contains("\"acked\":100"),
                verifiable);

        String verifiedConsumer = tool("org.apache.kafka.tools.VerifiableConsumer", "--topic", "orders",
                "--group-id", "verifiable", "--max-messages", "100");
        assertTrue(verifiedConsumer.contains("\"name\":\"records_consumed\""), verifiedConsumer);
        // positional arguments; it creates its one-partition topic
        String latency = runTool(JvmSpec.kafkaTool(nextName("EndToEndLatency"),
                "org.apache.kafka.tools.EndToEndLatency", bootstrap(), "latency", "200", "all", "100"));
        assertTrue(latency.contains("Avg latency"), latency);

        // cluster-wide views
        String versions = tool("org.apache.kafka.tools.BrokerApiVersionsCommand");
        assertTrue(versions.contains("Produce(0)") && versions.contains("Fetch(1)"), versions);
        // The features a client may use; metadata.version is this cluster's own and not advertised to clients.
        String features = tool("org.apache.kafka.tools.FeatureCommand", "describe");
        assertTrue(features.contains("Feature: transaction.version"), features);
        tool("org.apache.kafka.tools.FeatureCommand", "upgrade", "--feature", "transaction.version=2");
        String upgraded = transactionVersionLine(tool("org.apache.kafka.tools.FeatureCommand", "describe"));
        assertTrue(upgraded.contains("FinalizedVersionLevel: 2"), upgraded);
        tool("org.apache.kafka.tools.FeatureCommand", "downgrade", "--feature", "transaction.version=1");
        String downgraded = transactionVersionLine(tool("org.apache.kafka.tools.FeatureCommand", "describe"));
        assertTrue(downgraded.contains("FinalizedVersionLevel: 1"), downgraded);
        String quorum = tool("org.apache.kafka.tools.MetadataQuorumCommand", "describe", "--status");
        assertTrue(quorum.contains("LeaderId") && quorum.contains("CurrentVoters"), quorum);
        assertTrue(tool("org.apache.kafka.tools.TransactionsCommand", "list").contains("TransactionalId"));

        tool("org.apache.kafka.tools.TopicCommand", "--delete", "--topic", "orders");
    }

    private void startCluster() {
        String clusterId = MetaProperties.randomUuid();
        List<NodeConfigFile> voters = new ArrayList<>();
        for (int id : NODES) {
            NodeConfigFile node = NodeConfigFile.combined(id, dataDir.resolve("node-" + id));
            nodes.put(id, node);
            voters.add(node);
        }
        voters.forEach(node -> node.voters(voters));
        List<JvmProcess> started = new ArrayList<>();
        nodes.forEach((id, node) -> {
            Path config = node.write();
            node.directories().forEach(directory -> MetaProperties.forNewDirectory(clusterId, id).write(directory));
            started.add(processes.start(JvmSpec.kraftCli("node-" + id, "start", "--config", config.toString())));
        });
        for (int i = 0; i < started.size(); i++) {
            started.get(i).waitForLogLine("kraft node " + NODES.get(i) + " ready", WAIT);
        }
    }

    private String bootstrap() {
        return nodes.values().stream().map(node -> "127.0.0.1:" + node.brokerPort())
                .collect(Collectors.joining(","));
    }

    /** Runs a tool with {@code --bootstrap-server}, requires exit 0 and returns its standard output. */
    private String tool(String mainClass, String... args) {
        List<String> all = new ArrayList<>();
        if (!mainClass.endsWith("ProducerPerformance")) {
            // ProducerPerformance takes its bootstrap servers in --producer-props
            all.addAll(List.of("--bootstrap-server", bootstrap()));
        }
        all.addAll(List.of(args));
        String shortName = mainClass.substring(mainClass.lastIndexOf('.') + 1);
        return runTool(JvmSpec.kafkaTool(nextName(shortName), mainClass, all.toArray(String[]::new)));
    }

    /** kafka-features describe's line of transaction.version. */
    private static String transactionVersionLine(String describe) {
        return describe.lines().filter(line -> line.contains("Feature: transaction.version")).findFirst()
                .orElse(describe);
    }

    private String runTool(JvmSpec spec) {
        return tools.run(spec);
    }

    private String nextName(String tool) {
        return tools.nextName(tool);
    }
}
