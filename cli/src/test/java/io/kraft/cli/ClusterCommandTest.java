package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kraft-cli cluster} against an in-process node: the cluster id, and UnregisterBroker's refusal. */
class ClusterCommandTest {
    @Test
    void printsTheClusterIdAndRefusesToUnregisterAnUnknownBroker(@TempDir Path dir) throws Exception {
        try (ClientNode node = new ClientNode(dir)) {
            CliRun id = CliRun.of("cluster", "cluster-id", "--bootstrap-server", node.bootstrap());
            assertEquals(0, id.exitCode(), id.err());
            assertTrue(id.out().matches("Cluster ID: [A-Za-z0-9_-]{22}\\R"), id.out());

            CliRun unknown = CliRun.of("cluster", "unregister", "--bootstrap-server", node.bootstrap(), "--id", "99");
            assertEquals(KraftCli.EXIT_FAILURE, unknown.exitCode(), unknown.out());
            assertEquals(1, unknown.err().lines().count(), unknown.err());
            assertTrue(unknown.err().startsWith("Error: ") && unknown.err().contains("99"), unknown.err());
        }
    }
}
