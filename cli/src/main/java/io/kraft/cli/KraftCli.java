package io.kraft.cli;

import io.kraft.config.ConfigException;
import io.kraft.raft.file.MetadataLogLayoutException;
import io.kraft.storage.DirectoryLock;
import io.kraft.storage.MetaProperties.MetaPropertiesException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kraft-cli} entry point: creates and runs nodes and administers a cluster. */
@Command(name = "kraft-cli",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Creates, runs and administers kraft nodes.",
        subcommands = {RandomUuidCommand.class, FormatCommand.class, StartCommand.class,
                QuorumCommand.class, MetadataShellCommand.class, GroupsCommand.class, ShareGroupsCommand.class,
                TopicsCommand.class, ConfigsCommand.class, ProduceCommand.class, ConsumeCommand.class,
                TransactionsCommand.class, LeaderElectionCommand.class, ReassignPartitionsCommand.class,
                LogDirsCommand.class, AclsCommand.class, ClusterCommand.class, CommandLine.HelpCommand.class})
public final class KraftCli implements Runnable {
    /** The exit code of a command that ran and failed (bad configuration, unusable directory). */
    public static final int EXIT_FAILURE = 1;
    /** The exit code of a command line picocli could not parse (picocli's own convention). */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one command line, printing to the given writers, and returns the process exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new KraftCli());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler((failure, failed, parseResult) -> {
            if (isExpected(failure)) {
                // The message already says what is wrong and what to do; a stack trace would bury it.
                failed.getErr().println("Error: " + failure.getMessage());
                failed.getErr().flush();
                return EXIT_FAILURE;
            }
            throw failure;
        });
        return commandLine.execute(args);
    }

    private static boolean isExpected(Exception failure) {
        return failure instanceof ConfigException
                || failure instanceof MetaPropertiesException
                || failure instanceof AlreadyFormattedException
                || failure instanceof UncheckedIOException
                || failure instanceof MetadataLogLayoutException
                || failure instanceof DirectoryLock.DirectoryInUseException;
    }

    /** Without a subcommand there is nothing to do: say what there is. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: one of "
                + spec.subcommands().keySet());
    }
}
