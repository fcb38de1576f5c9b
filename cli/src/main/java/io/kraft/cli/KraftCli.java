package io.kraft.cli;

import io.kraft.config.ConfigException;
import io.kraft.raft.file.MetadataLogLayoutException;
import io.kraft.storage.DirectoryLock;
import io.kraft.storage.MetaProperties.MetaPropertiesException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kraft-cli} entry point: creates and runs nodes and administers a cluster. */
@Command(name = "kraft-cli",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Creates, runs and administers kraft nodes.")
public final class KraftCli implements Runnable {
    /**
     * The subcommands, in the order usage lists them. picocli reflects over a command and builds it (its fields'
     * classes, its static loggers) when it is added, which for all of them took a third of a start's JVM phase; so a
     * command line naming one gets only that one (see {@link #commandLine}).
     */
    private static final List<Class<?>> SUBCOMMANDS = List.of(RandomUuidCommand.class, FormatCommand.class,
            StartCommand.class, QuorumCommand.class, MetadataShellCommand.class, GroupsCommand.class,
            ShareGroupsCommand.class, TopicsCommand.class, ConfigsCommand.class, ProduceCommand.class,
            ConsumeCommand.class, TransactionsCommand.class, LeaderElectionCommand.class, ReassignPartitionsCommand.class,
            LogDirsCommand.class, AclsCommand.class, ClusterCommand.class, CommandLine.HelpCommand.class);

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
        CommandLine commandLine = commandLine(args);
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

    /**
     * The command tree for {@code args}: when they start with a subcommand's exact name, only that subcommand (it
     * parses, runs and prints its usage the same); otherwise every subcommand, which the top level's usage, {@code help}
     * and the suggestions for a misspelt name need.
     */
    public static CommandLine commandLine(String... args) {
        CommandLine commandLine = new CommandLine(new KraftCli());
        String first = args.length == 0 ? "" : args[0];
        Class<?> named = null;
        for (Class<?> subcommand : SUBCOMMANDS) {
            if (subcommand != CommandLine.HelpCommand.class
                    && subcommand.getAnnotation(Command.class).name().equals(first)) {
                named = subcommand;
            }
        }
        if (named != null) {
            commandLine.addSubcommand(named);
        } else {
            SUBCOMMANDS.forEach(commandLine::addSubcommand);
        }
        return commandLine;
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
