package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.util.List;
import org.junit.jupiter.api.Test;

class KraftCliTest {
    @Test
    void helpListsTheSubcommands() {
        CliRun run = CliRun.of("--help");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Usage: kraft-cli"), run.out());
        assertTrue(run.out().contains("random-uuid"), run.out());
        assertTrue(run.out().contains("format"), run.out());
    }

    @Test
    void versionNamesTheProjectVersion() throws Exception {
        CliRun run = CliRun.of("--version");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("kraft-cli " + VersionProvider.version() + " "), run.out());
        assertTrue(VersionProvider.version().matches("\\d+\\.\\d+\\.\\d+.*"), VersionProvider.version());
    }

    @Test
    void randomUuidPrintsOneNewClusterIdPerRun() {
        CliRun first = CliRun.of("random-uuid");
        CliRun second = CliRun.of("random-uuid");
        assertEquals(0, first.exitCode(), first.err());
        String id = first.out().strip();
        assertEquals(first.out(), id + System.lineSeparator());
        assertTrue(MetaProperties.isValidUuid(id), id);
        assertNotEquals(id, second.out().strip());
    }

    @Test
    void noSubcommandOrAnUnknownOneIsAUsageError() {
        CliRun none = CliRun.of();
        assertEquals(KraftCli.EXIT_USAGE, none.exitCode());
        assertTrue(none.err().startsWith("Missing subcommand"), none.err());
        assertTrue(none.err().contains("Usage: kraft-cli"), none.err());

        CliRun unknown = CliRun.of("frobnicate");
        assertEquals(KraftCli.EXIT_USAGE, unknown.exitCode());
        assertTrue(unknown.err().contains("frobnicate"), unknown.err());

        CliRun unknownFlag = CliRun.of("random-uuid", "--bogus");
        assertEquals(KraftCli.EXIT_USAGE, unknownFlag.exitCode());
        assertTrue(unknownFlag.err().contains("--bogus"), unknownFlag.err());
    }

    @Test
    void aCommandLineNamingASubcommandBuildsOnlyThatOne() {
        assertEquals(List.of("start"), List.copyOf(KraftCli.commandLine("start", "--config", "x").getSubcommands().keySet()));
        CliRun startHelp = CliRun.of("start", "--help");
        assertEquals(0, startHelp.exitCode(), startHelp.err());
        assertTrue(startHelp.out().startsWith("Usage: kraft-cli start"), startHelp.out());

        // The top level's usage, help and suggestions for a misspelt name need every subcommand.
        for (String[] args : List.of(new String[0], new String[] {"--help"}, new String[] {"help", "start"},
                new String[] {"strat"})) {
            List<String> names = List.copyOf(KraftCli.commandLine(args).getSubcommands().keySet());
            assertEquals("random-uuid", names.get(0), names.toString());
            assertTrue(names.containsAll(List.of("format", "start", "topics", "help")), names.toString());
        }
        CliRun helpStart = CliRun.of("help", "start");
        assertEquals(0, helpStart.exitCode(), helpStart.err());
        assertTrue(helpStart.out().startsWith("Usage: kraft-cli start"), helpStart.out());
    }
}
