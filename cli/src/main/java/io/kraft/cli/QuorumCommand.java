package io.kraft.cli;

import io.grpc.ChannelCredentials;
import io.kraft.cli.client.ClientProperties;
import io.kraft.cli.quorum.ControllerUnreachableException;
import io.kraft.cli.quorum.QuorumClient;
import io.kraft.cli.quorum.QuorumClient.HostPort;
import io.kraft.cli.quorum.QuorumInfo;
import io.kraft.cli.quorum.QuorumStatusReport;
import io.kraft.cli.quorum.QuorumUnavailableException;
import io.kraft.cli.quorum.ReplicationTable;
import io.kraft.config.ConfigException;
import io.kraft.server.grpc.ControlPlaneSecurity;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli quorum --bootstrap-controller HOST:PORT describe --status|--replication}: the Raft metadata
 * quorum as its leader sees it, in the format of Kafka's {@code kafka-metadata-quorum.sh}; {@code add-controller} and
 * {@code remove-controller} change a dynamic quorum's voters (KIP-853).
 */
@Command(name = "quorum", mixinStandardHelpOptions = true,
        description = "Describes the Raft metadata quorum and changes its controllers (like kafka-metadata-quorum.sh).",
        subcommands = {QuorumCommand.Describe.class, AddControllerCommand.class, RemoveControllerCommand.class})
final class QuorumCommand implements Runnable {
    /** How long one describe-quorum call may take, connecting included. */
    static final long REQUEST_TIMEOUT_MS = 10_000;
    /**
     * gRPC logs failed name lookups and connections as multi-line warnings; a failure here is reported as one
     * line of our own, so only its severe messages remain (kept referenced: the logging framework holds loggers
     * weakly).
     */
    private static final Logger GRPC_LOGGER = Logger.getLogger("io.grpc");

    @Spec
    private CommandSpec spec;

    @Option(names = "--bootstrap-controller", required = true, paramLabel = "HOST:PORT", split = ",",
            description = "CONTROLLER listener(s) of one or more controllers, comma-separated.")
    private List<String> bootstrapControllers;

    @Option(names = "--command-config", paramLabel = "FILE",
            description = "Client properties: security.protocol=SSL with ssl.keystore.* (a super.users certificate)"
                    + " and ssl.truststore.* when the control plane is SSL.")
    private Path commandConfig;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "Missing subcommand: describe, add-controller or remove-controller");
    }

    /**
     * The client for {@code --bootstrap-controller} and {@code --command-config}, or empty after printing one line
     * saying what is wrong with them.
     */
    Optional<QuorumClient> client(CommandSpec command, PrintWriter err) {
        List<HostPort> controllers = new ArrayList<>();
        for (String text : bootstrapControllers) {
            try {
                controllers.add(HostPort.parse(text));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(command.commandLine(),
                        "Invalid --bootstrap-controller: " + e.getMessage());
            }
        }
        GRPC_LOGGER.setLevel(Level.SEVERE);
        try {
            Map<String, String> clientProps = new LinkedHashMap<>();
            ClientProperties.of("", commandConfig, List.of())
                    .forEach((key, value) -> clientProps.put(key, String.valueOf(value)));
            ChannelCredentials credentials = ControlPlaneSecurity.toolCredentials(clientProps);
            return Optional.of(new QuorumClient(controllers, REQUEST_TIMEOUT_MS, credentials));
        } catch (ConfigException | UncheckedIOException e) {
            err.println("Error: " + e.getMessage());
            err.flush();
            return Optional.empty();
        }
    }

    /** The command config file, which add-controller reads as the new controller's own configuration. */
    Path commandConfig() {
        return commandConfig;
    }

    /** {@code describe}: prints the quorum's status or its replication table. */
    @Command(name = "describe", mixinStandardHelpOptions = true,
            description = "Prints the quorum's status (--status) or each member's replication state (--replication).")
    static final class Describe implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @ParentCommand
        private QuorumCommand parent;

        @ArgGroup(exclusive = true, multiplicity = "1")
        private What what;

        @Option(names = "--human-readable",
                description = "With --replication: timestamps as how long ago, instead of epoch milliseconds.")
        private boolean humanReadable;

        /** Exactly one of the two reports. */
        static final class What {
            @Option(names = "--status", required = true,
                    description = "Leader, epoch, high watermark, lag and the voters and observers.")
            boolean status;

            @Option(names = "--replication", required = true,
                    description = "Each member's log end offset, lag, last fetch and last caught-up time.")
            boolean replication;
        }

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Optional<QuorumClient> client = parent.client(spec, err);
            if (client.isEmpty()) {
                return KraftCli.EXIT_FAILURE;
            }
            QuorumInfo quorum;
            try {
                quorum = client.get().describe();
            } catch (ControllerUnreachableException | QuorumUnavailableException e) {
                err.println("Error: " + e.getMessage());
                err.flush();
                return KraftCli.EXIT_FAILURE;
            }
            List<String> lines = what.status ? QuorumStatusReport.lines(quorum)
                    : ReplicationTable.lines(quorum, humanReadable, System.currentTimeMillis());
            lines.forEach(out::println);
            out.flush();
            return 0;
        }
    }
}
