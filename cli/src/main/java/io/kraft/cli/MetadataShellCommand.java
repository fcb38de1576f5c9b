package io.kraft.cli;

import io.kraft.cli.shell.LoadedMetadata;
import io.kraft.cli.shell.MetadataLoader;
import io.kraft.cli.shell.MetadataLogDump;
import io.kraft.cli.shell.MetadataShellException;
import io.kraft.cli.shell.ShellSession;
import java.io.BufferedReader;
import java.io.Console;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli metadata-shell --directory METADATA_LOG_DIR [COMMAND...]}: a stopped node's metadata, offline,
 * as a tree to walk with ls, cd, cat, tree and find; one command and exit, or commands from stdin. Also
 * {@code --snapshot PATH} for one snapshot, and {@code --dump-log} to print the committed log.
 */
@Command(name = "metadata-shell", mixinStandardHelpOptions = true,
        description = {"Inspects a stopped node's metadata offline: its newest snapshot plus the committed metadata "
                + "log after it, as a tree (/brokers, /topics, /topicIds, /configs, /features, /producerIds, /transactions, /acls, "
                + "/image, /quorum).",
                "With COMMAND it runs that one command and exits; without, it reads commands from stdin "
                        + "(try 'help')."})
final class MetadataShellCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Source source;

    @Option(names = "--dump-log",
            description = "Print each committed record of the log (offset, epoch, type, fields), one per line.")
    private boolean dumpLog;

    @Parameters(arity = "0..*", paramLabel = "COMMAND",
            description = "One shell command and its arguments, e.g. 'ls /topics'.")
    private List<String> command = List.of();

    /** Where the metadata comes from. */
    static final class Source {
        @Option(names = "--directory", required = true, paramLabel = "METADATA_LOG_DIR",
                description = "A stopped node's metadata.log.dir, or the __cluster_metadata-0 directory in it.")
        Path directory;

        @Option(names = "--snapshot", required = true, paramLabel = "PATH",
                description = "One snapshot directory, "
                        + "<metadata.log.dir>/__cluster_metadata-0/snapshots/<endOffset>-<epoch>.")
        Path snapshot;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (dumpLog && (source.directory == null || !command.isEmpty())) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--dump-log needs --directory and no COMMAND");
        }
        try {
            if (dumpLog) {
                printNotes(MetadataLogDump.print(source.directory, out), err);
                return 0;
            }
            LoadedMetadata metadata = source.directory != null ? MetadataLoader.fromDirectory(source.directory)
                    : MetadataLoader.fromSnapshot(source.snapshot);
            printNotes(metadata.notes(), err);
            ShellSession session = new ShellSession(metadata.tree(), out, err);
            if (!command.isEmpty()) {
                return session.execute(command) == ShellSession.Outcome.FAILED ? KraftCli.EXIT_FAILURE : 0;
            }
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            return session.run(stdin, isInteractive());
        } catch (MetadataShellException e) {
            err.println("Error: " + e.getMessage());
            err.flush();
            return KraftCli.EXIT_FAILURE;
        }
    }

    private static void printNotes(List<String> notes, PrintWriter err) {
        notes.forEach(note -> err.println("Note: " + note));
        err.flush();
    }

    /** Whether stdin and stdout are a terminal (Java 22+ has a console even when they are redirected). */
    private static boolean isInteractive() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException olderJava) {
            return true;
        }
    }
}
