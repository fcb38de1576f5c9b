package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.Voter;
import io.kraft.raft.VoterSet;
import io.kraft.raft.file.BootstrapVotersFile;
import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kraft-cli format --standalone | --initial-controllers | --no-initial-controllers} (KIP-853). */
class FormatDynamicQuorumTest {
    private static final String CLUSTER_ID = MetaProperties.randomUuid();

    @TempDir
    Path root;

    private Path config() throws Exception {
        Path file = root.resolve("controller.properties");
        Files.writeString(file, "process.roles=controller\nnode.id=1\n"
                + "controller.quorum.voters=1@localhost:9093,2@localhost:9094\n"
                + "listeners=CONTROLLER://localhost:9093\ncontroller.listener.names=CONTROLLER\n"
                + "log.dirs=" + root.resolve("metadata") + "\n");
        return file;
    }

    private CliRun format(String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("format", "--config", config().toString(),
                "--cluster-id", CLUSTER_ID));
        args.addAll(List.of(extra));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void standaloneMakesThisControllerTheOnlyVoterWithItsDirectory() throws Exception {
        CliRun run = format("--standalone");
        assertEquals(0, run.exitCode(), run.err());
        Path metadata = root.resolve("metadata");
        VoterSet voters = BootstrapVotersFile.read(metadata).orElseThrow();
        Voter self = voters.voter(1).orElseThrow();
        assertEquals(1, voters.size());
        assertEquals(MetaProperties.read(metadata).orElseThrow().directoryUuid(), self.directoryId());
        assertEquals("localhost:9093", self.endpoint());
        assertTrue(run.out().contains("kraft.version 1"), run.out());
    }

    @Test
    void initialControllersGiveThisDirectoryTheIdNamedForIt() throws Exception {
        String dir1 = MetaProperties.randomUuid();
        String dir2 = MetaProperties.randomUuid();
        CliRun run = format("--initial-controllers", "1@localhost:9093:" + dir1 + ",2@localhost:9094:" + dir2);
        assertEquals(0, run.exitCode(), run.err());
        Path metadata = root.resolve("metadata");
        assertEquals(dir1, MetaProperties.read(metadata).orElseThrow().directoryId());
        VoterSet voters = BootstrapVotersFile.read(metadata).orElseThrow();
        assertEquals(MetaProperties.fromKafkaUuid(dir2), voters.voter(2).orElseThrow().directoryId());
    }

    @Test
    void noInitialControllersWritesAnEmptySetAndNoneKeepsTheStaticQuorum() throws Exception {
        CliRun dynamic = format("--no-initial-controllers");
        assertEquals(0, dynamic.exitCode());
        assertTrue(BootstrapVotersFile.read(root.resolve("metadata")).orElseThrow().isEmpty());
        assertTrue(dynamic.out().contains("kraft.version=1"), "kraft.version finalized: " + dynamic.out());
        Files.walk(root.resolve("metadata")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        CliRun fixed = format();
        assertEquals(0, fixed.exitCode());
        assertEquals(Optional.empty(), BootstrapVotersFile.read(root.resolve("metadata")));
        assertFalse(fixed.out().contains("kraft.version"), "a static quorum is kraft.version 0: " + fixed.out());
    }

    @Test
    void badListsAreRefusedInOneLineAndWriteNothing() throws Exception {
        String dir = MetaProperties.randomUuid();
        for (String[] args : List.of(new String[] {"--standalone", "--no-initial-controllers"},
                new String[] {"--initial-controllers", "1@localhost:9093"},
                new String[] {"--standalone", "--feature", "kraft.version=1"},
                new String[] {"--initial-controllers", "1@localhost:9093:not-a-uuid"},
                new String[] {"--initial-controllers", "2@localhost:9094:" + dir},
                new String[] {"--initial-controllers", "1@localhost:9093:" + dir + ",1@localhost:9095:" + dir})) {
            CliRun run = format(args);
            assertNotEquals(0, run.exitCode(), String.join(" ", args));
            assertFalse(run.err().isBlank(), "says why: " + String.join(" ", args));
            assertFalse(Files.exists(root.resolve("metadata").resolve("meta.properties")), String.join(" ", args));
        }
    }
}
