package io.kraft.cli;

import io.kraft.cli.quorum.ControllerUnreachableException;
import io.kraft.cli.quorum.QuorumClient;
import io.kraft.cli.quorum.QuorumUnavailableException;
import io.kraft.config.ConfigException;
import io.kraft.config.ParsedConfig;
import io.kraft.storage.MetaProperties;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli quorum --bootstrap-controller HOST:PORT --command-config controller.properties add-controller}: run
 * for a new controller (formatted with {@code --no-initial-controllers} and started, so it follows the log as an
 * observer), asks the quorum's leader to add it as a voter (KIP-853's AddRaftVoter), as Kafka's
 * {@code kafka-metadata-quorum add-controller} does: its id, directory id and endpoint (its controller.quorum.voters
 * entry or its CONTROLLER listener) come from its own configuration.
 */
@Command(name = "add-controller", mixinStandardHelpOptions = true,
        description = "Adds the controller whose configuration is --command-config as a voter of the quorum.")
final class AddControllerCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @ParentCommand
    private QuorumCommand parent;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (parent.commandConfig() == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "add-controller needs --command-config naming the new controller's configuration file");
        }
        int nodeId;
        UUID directory;
        String endpoint;
        try {
            ParsedConfig config = NodeConfigs.load(parent.commandConfig());
            nodeId = config.getInt(NodeConfigs.NODE_ID);
            if (!config.getList(NodeConfigs.PROCESS_ROLES).contains(NodeConfigs.ROLE_CONTROLLER)) {
                throw new ConfigException(parent.commandConfig() + " is no controller's: process.roles is "
                        + String.join(",", config.getList(NodeConfigs.PROCESS_ROLES)));
            }
            Path metadataLogDir = NodeConfigs.metadataLogDir(config);
            directory = MetaProperties.read(metadataLogDir).map(MetaProperties::directoryUuid)
                    .orElseThrow(() -> new ConfigException(metadataLogDir + " is not formatted: run kraft-cli format"
                            + " --no-initial-controllers first"));
            endpoint = NodeConfigs.controllerEndpoint(config).orElseThrow(() -> new ConfigException(
                    "neither controller.quorum.voters nor a CONTROLLER listener gives node " + nodeId
                            + "'s controller endpoint"));
        } catch (ConfigException | IllegalArgumentException e) {
            err.println("Error: " + e.getMessage());
            err.flush();
            return KraftCli.EXIT_FAILURE;
        }
        Optional<QuorumClient> client = parent.client(spec, err);
        if (client.isEmpty()) {
            return KraftCli.EXIT_FAILURE;
        }
        try {
            client.get().changeVoters(QuorumClient.VoterChange.ADD, nodeId, directory, endpoint);
        } catch (ControllerUnreachableException | QuorumUnavailableException e) {
            err.println("Error: " + e.getMessage());
            err.flush();
            return KraftCli.EXIT_FAILURE;
        }
        out.println("Added controller " + nodeId + " with directory id " + MetaProperties.toKafkaUuid(directory)
                + " at " + endpoint + " as a voter");
        out.flush();
        return 0;
    }
}
