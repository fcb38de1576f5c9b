package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.BootstrapMetadata;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FormatCommandTest {
    private static final String CLUSTER_ID = MetaProperties.randomUuid();

    @TempDir
    Path root;

    private Path config(String... extraLines) throws Exception {
        StringBuilder text = new StringBuilder()
                .append("process.roles=broker,controller\n")
                .append("node.id=4\n")
                .append("controller.quorum.voters=4@localhost:9093\n")
                .append("listeners=PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093\n")
                .append("log.dirs=").append(root.resolve("logs1")).append(',').append(root.resolve("logs2")).append('\n')
                .append("metadata.log.dir=").append(root.resolve("metadata")).append('\n');
        for (String line : extraLines) {
            text.append(line).append('\n');
        }
        Path file = root.resolve("server.properties");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void formatsEveryLogDirAndTheMetadataDir() throws Exception {
        Path config = config();
        CliRun run = CliRun.of("format", "--config", config.toString(), "--cluster-id", CLUSTER_ID);
        assertEquals(0, run.exitCode(), run.err());
        List<Path> dirs = List.of(root.resolve("logs1"), root.resolve("logs2"), root.resolve("metadata"));
        for (Path dir : dirs) {
            MetaProperties meta = MetaProperties.read(dir).orElseThrow();
            assertEquals(CLUSTER_ID, meta.clusterId());
            assertEquals(4, meta.nodeId());
            assertTrue(run.out().contains("Formatted " + dir + " with cluster.id " + CLUSTER_ID + " and node.id 4"), run.out());
        }
        assertNotEquals(MetaProperties.read(dirs.get(0)).orElseThrow().directoryId(),
                MetaProperties.read(dirs.get(1)).orElseThrow().directoryId());
        assertEquals(3, MetaProperties.verify(dirs, 4, config).size());
        // A new cluster starts with eligible leader replicas on (KIP-966), the consumer group protocol (KIP-848) and
        // transaction version 2 (KIP-890).
        assertEquals(Map.of("eligible.leader.replicas.version", 1, "group.version", 1, "transaction.version", 2),
                finalized(root.resolve("metadata")));
    }

    @Test
    void aMetadataDirThatIsALogDirIsFormattedOnce() throws Exception {
        Path config = config("metadata.log.dir=" + root.resolve("logs1"));
        CliRun run = CliRun.of("format", "-c", config.toString(), "-t", CLUSTER_ID);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(2, run.out().lines().filter(line -> line.startsWith("Formatted ")).count(), run.out());
        assertFalse(Files.exists(root.resolve("metadata")));
    }

    @Test
    void aNewClusterStartsAtTransactionVersion2UnlessFeatureSaysOtherwise() throws Exception {
        Path config = config();
        CliRun run = CliRun.of("format", "-c", config.toString(), "-t", CLUSTER_ID);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Finalized eligible.leader.replicas.version=1, group.version=1,"
                + " transaction.version=2 in the"
                + " bootstrap records of "), run.out());
        assertEquals(2, finalized(root.resolve("metadata")).get("transaction.version"));

    }

    @Test
    void featureSetsALevelOtherThanTheDefault() throws Exception {
        CliRun run = CliRun.of("format", "-c", config().toString(), "-t", CLUSTER_ID,
                "--feature", "transaction.version=1");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(1, finalized(root.resolve("metadata")).get("transaction.version"));
    }

    @Test
    void anUnknownFeatureOrALevelOutsideItsRangeIsAUsageErrorAndWritesNothing() throws Exception {
        Path config = config();
        CliRun unknown = CliRun.of("format", "-c", config.toString(), "-t", CLUSTER_ID, "--feature", "no.such=1");
        assertEquals(KraftCli.EXIT_USAGE, unknown.exitCode());
        assertTrue(unknown.err().startsWith("Invalid --feature no.such=1: unknown feature 'no.such'"), unknown.err());
        CliRun tooHigh = CliRun.of("format", "-c", config.toString(), "-t", CLUSTER_ID,
                "--feature", "transaction.version=3");
        assertEquals(KraftCli.EXIT_USAGE, tooHigh.exitCode());
        assertTrue(tooHigh.err().contains("transaction.version supports levels 1 to 2"), tooHigh.err());
        assertFalse(Files.exists(root.resolve("logs1")));
    }

    private static Map<String, Integer> finalized(Path metadataDir) {
        Map<String, Integer> levels = new TreeMap<>();
        BootstrapMetadata.read(metadataDir).stream().filter(MetadataRecord::hasFeatureLevel)
                .map(MetadataRecord::getFeatureLevel).forEach(r -> levels.put(r.getName(), r.getLevel()));
        return levels;
    }

    @Test
    void usesLogDirWhenLogDirsIsUnset() throws Exception {
        Path config = root.resolve("single.properties");
        Files.writeString(config, "process.roles=broker\nnode.id=2\ncontroller.quorum.voters=1@localhost:9093\n"
                + "listeners=PLAINTEXT://:9092\nlog.dir=" + root.resolve("only") + "\n");
        CliRun run = CliRun.of("format", "--config", config.toString(), "--cluster-id", CLUSTER_ID);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(2, MetaProperties.read(root.resolve("only")).orElseThrow().nodeId());
    }

    @Test
    void refusesAFormattedDirAndWritesNothing() throws Exception {
        Path config = config();
        MetaProperties earlier = MetaProperties.forNewDirectory(CLUSTER_ID, 4);
        earlier.write(root.resolve("logs2"));
        CliRun run = CliRun.of("format", "--config", config.toString(), "--cluster-id", MetaProperties.randomUuid());
        assertEquals(KraftCli.EXIT_FAILURE, run.exitCode());
        assertEquals("Error: log directory " + root.resolve("logs2") + " is already formatted with cluster.id " + CLUSTER_ID
                + ": pass --ignore-formatted to format only the others" + System.lineSeparator(), run.err());
        assertFalse(Files.exists(root.resolve("logs1")), "nothing written before the refusal");
        assertEquals(earlier, MetaProperties.read(root.resolve("logs2")).orElseThrow());
    }

    @Test
    void ignoreFormattedFormatsOnlyTheOthers() throws Exception {
        Path config = config();
        MetaProperties earlier = MetaProperties.forNewDirectory(CLUSTER_ID, 4);
        earlier.write(root.resolve("logs2"));
        CliRun run = CliRun.of("format", "--config", config.toString(), "--cluster-id", CLUSTER_ID, "--ignore-formatted");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Skipping " + root.resolve("logs2")), run.out());
        assertEquals(earlier, MetaProperties.read(root.resolve("logs2")).orElseThrow());
        assertEquals(CLUSTER_ID, MetaProperties.read(root.resolve("logs1")).orElseThrow().clusterId());

        CliRun again = CliRun.of("format", "--config", config.toString(), "--cluster-id", CLUSTER_ID, "-g");
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.out().contains("All of the log directories are already formatted."), again.out());
    }

    @Test
    void missingOptionsAndABadClusterIdAreUsageErrors() throws Exception {
        Path config = config();
        CliRun noCluster = CliRun.of("format", "--config", config.toString());
        assertEquals(KraftCli.EXIT_USAGE, noCluster.exitCode());
        assertTrue(noCluster.err().startsWith("Missing required option: '--cluster-id=ID'"), noCluster.err());
        assertTrue(noCluster.err().contains("Usage: kraft-cli format"), noCluster.err());

        CliRun noValue = CliRun.of("format", "--config");
        assertEquals(KraftCli.EXIT_USAGE, noValue.exitCode());

        CliRun badId = CliRun.of("format", "--config", config.toString(), "--cluster-id", "not-a-uuid");
        assertEquals(KraftCli.EXIT_USAGE, badId.exitCode());
        assertTrue(badId.err().contains("'not-a-uuid' is not a cluster id"), badId.err());
        assertFalse(Files.exists(root.resolve("logs1")));
    }

    @Test
    void badConfigurationFailsWithOneLine() throws Exception {
        CliRun missingFile = CliRun.of("format", "--config", root.resolve("nope.properties").toString(), "-t", CLUSTER_ID);
        assertEquals(KraftCli.EXIT_FAILURE, missingFile.exitCode());
        assertTrue(missingFile.err().startsWith("Error: Cannot read configuration file"), missingFile.err());
        assertEquals(1, missingFile.err().lines().count(), missingFile.err());

        Path config = config("node.id=-1");
        CliRun badNodeId = CliRun.of("format", "--config", config.toString(), "-t", CLUSTER_ID);
        assertEquals(KraftCli.EXIT_FAILURE, badNodeId.exitCode());
        assertEquals("Error: Invalid value -1 for configuration node.id: expected an int at least 0"
                + System.lineSeparator(), badNodeId.err());
        assertFalse(Files.exists(root.resolve("logs1")));
    }
}
