package io.kraft.cli;

import io.kraft.cli.quorum.ControllerUnreachableException;
import io.kraft.cli.quorum.QuorumClient;
import io.kraft.cli.quorum.QuorumUnavailableException;
import io.kraft.storage.MetaProperties;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli quorum --bootstrap-controller HOST:PORT remove-controller --controller-id N
 * --controller-directory-id D}: asks the quorum's leader to remove that voter (KIP-853's RemoveRaftVoter), as
 * Kafka's {@code kafka-metadata-quorum remove-controller} does.
 */
@Command(name = "remove-controller", mixinStandardHelpOptions = true,
        description = "Removes a voter, named by its node id and metadata log directory id, from the quorum.")
final class RemoveControllerCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @ParentCommand
    private QuorumCommand parent;

    @Option(names = "--controller-id", required = true, paramLabel = "ID", description = "The voter's node id.")
    private int controllerId;

    @Option(names = "--controller-directory-id", required = true, paramLabel = "UUID",
            description = "The voter's metadata log directory id (describe --replication shows it).")
    private String directoryId;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (controllerId < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "Invalid --controller-id " + controllerId + ": a node id is >= 0");
        }
        if (!MetaProperties.isValidUuid(directoryId)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Invalid --controller-directory-id '"
                    + directoryId + "': expected a Kafka uuid (22 characters of URL-safe base64)");
        }
        UUID directory = MetaProperties.fromKafkaUuid(directoryId);
        Optional<QuorumClient> client = parent.client(spec, err);
        if (client.isEmpty()) {
            return KraftCli.EXIT_FAILURE;
        }
        try {
            client.get().changeVoters(QuorumClient.VoterChange.REMOVE, controllerId, directory, null);
        } catch (ControllerUnreachableException | QuorumUnavailableException e) {
            err.println("Error: " + e.getMessage());
            err.flush();
            return KraftCli.EXIT_FAILURE;
        }
        out.println("Removed controller " + controllerId + " with directory id " + directoryId + " from the voters");
        out.flush();
        return 0;
    }
}
