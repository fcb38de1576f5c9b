package io.kraft.cli;

import io.kraft.config.ParsedConfig;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.controller.ClusterFeatures;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.Voter;
import io.kraft.raft.VoterSet;
import io.kraft.raft.file.BootstrapVotersFile;
import io.kraft.storage.MetaProperties;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code kraft-cli format}: writes meta.properties (cluster id, node id, a fresh directory id) into
 * every log directory and the metadata log directory of a node, so that the node can start; the feature levels a new
 * cluster starts with ({@link ClusterFeatures#FORMAT_DEFAULTS}, each changeable with {@code --feature name=level}) and,
 * with {@code --add-scram}, its first SCRAM credentials (as {@code kafka-storage.sh format}); and for a dynamic
 * controller quorum (KIP-853) the voters it starts with ({@code --standalone}, {@code --initial-controllers}).
 */
@Command(name = "format", mixinStandardHelpOptions = true,
        description = "Formats the log directories and the metadata log directory of a node.")
final class FormatCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE",
            description = "The node's properties file.")
    private Path configFile;

    @Option(names = {"-t", "--cluster-id"}, required = true, paramLabel = "ID", converter = ClusterIdConverter.class,
            description = "The cluster id, e.g. from 'kraft-cli random-uuid'; every node of a cluster gets the same.")
    private String clusterId;

    @Option(names = {"-g", "--ignore-formatted"},
            description = "Skip directories that are already formatted instead of failing.")
    private boolean ignoreFormatted;

    @Option(names = {"-S", "--add-scram"}, paramLabel = "MECHANISM=[name=USER,password=PASSWORD]",
            description = "A SCRAM credential the new cluster starts with, e.g. SCRAM-SHA-256=[name=admin,"
                    + "password=admin-secret] (optionally iterations=4096..16384); repeatable. Written into the"
                    + " metadata log directory's bootstrap records, so the first admin can log in.")
    private List<String> scramCredentials = new ArrayList<>();

    @Option(names = {"-f", "--feature"}, paramLabel = "NAME=LEVEL",
            description = "A feature level the new cluster starts with instead of the default, e.g."
                    + " transaction.version=1 (0 leaves the feature off); repeatable. Defaults: eligible.leader.replicas.version=1, group.version=1, transaction.version=2.")
    private List<String> featureLevels = new ArrayList<>();

    @Option(names = {"-s", "--standalone"},
            description = "Start a dynamic controller quorum (KIP-853) with this controller as its only voter; grow it"
                    + " with 'kraft-cli quorum add-controller'. Its address is its controller.quorum.voters entry, else its CONTROLLER listener.")
    private boolean standalone;

    @Option(names = {"-I", "--initial-controllers"}, paramLabel = "ID@HOST:PORT:DIRECTORY_ID,...",
            description = "Start a dynamic controller quorum (KIP-853) with these voters; each controller is formatted"
                    + " with the same list, and its metadata log directory gets the directory id given for it.")
    private String initialControllers;

    @Option(names = {"-N", "--no-initial-controllers"},
            description = "Format a controller of a dynamic quorum that is not a voter yet: it follows the log as an"
                    + " observer until it is added.")
    private boolean noInitialControllers;

    @Override
    public void run() {
        ParsedConfig config = NodeConfigs.load(configFile);
        Optional<VoterSet> bootstrapVoters = bootstrapVoters(config);
        Map<String, Integer> features = featureLevels();
        if (bootstrapVoters.isPresent()) {
            features.put(ClusterFeatures.KRAFT_VERSION, 1); // voters stated in the log may change (KIP-853)
        }
        List<MetadataRecord> credentials = bootstrapRecords();
        List<MetadataRecord> bootstrap = new ArrayList<>(ClusterFeatures.levelRecords(features));
        bootstrap.addAll(credentials);
        int nodeId = config.getInt(NodeConfigs.NODE_ID);
        PrintWriter out = spec.commandLine().getOut();
        List<Path> unformatted = new ArrayList<>();
        // Check every directory before writing any, so a refusal leaves nothing half-formatted.
        for (Path dir : NodeConfigs.allDirectories(config)) {
            Optional<MetaProperties> existing = MetaProperties.read(dir);
            if (existing.isEmpty()) {
                unformatted.add(dir);
            } else if (ignoreFormatted) {
                out.println("Skipping " + dir + ": already formatted with cluster.id " + existing.get().clusterId()
                        + " and node.id " + existing.get().nodeId());
            } else {
                throw new AlreadyFormattedException("log directory " + dir + " is already formatted with cluster.id "
                        + existing.get().clusterId() + ": pass --ignore-formatted to format only the others");
            }
        }
        if (unformatted.isEmpty()) {
            out.println("All of the log directories are already formatted.");
        }
        Path metadataLogDir = NodeConfigs.metadataLogDir(config);
        for (Path dir : unformatted) {
            MetaProperties meta = MetaProperties.forNewDirectory(clusterId, nodeId);
            if (dir.equals(metadataLogDir) && bootstrapVoters.isPresent()) {
                // The voter key names this directory: it must be the id the other controllers were given for us.
                Optional<UUID> given = bootstrapVoters.get().voter(nodeId).map(Voter::directoryId)
                        .filter(id -> !id.equals(Voter.UNKNOWN_DIRECTORY));
                meta = new MetaProperties(clusterId, nodeId, given.map(MetaProperties::toKafkaUuid)
                        .orElse(meta.directoryId()));
                if (standalone) {
                    bootstrapVoters = Optional.of(VoterSet.of(List.of(new Voter(nodeId, meta.directoryUuid(),
                            bootstrapVoters.get().voter(nodeId).orElseThrow().endpoint()))));
                }
            }
            meta.write(dir);
            out.println("Formatted " + dir + " with cluster.id " + clusterId + " and node.id " + nodeId);
        }
        if (bootstrapVoters.isPresent() && unformatted.contains(metadataLogDir)) {
            try {
                BootstrapVotersFile.write(metadataLogDir, bootstrapVoters.get());
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write the bootstrap voters into " + metadataLogDir + ": "
                        + e.getMessage(), e);
            }
            out.println("Wrote the initial controller quorum " + bootstrapVoters.get().ids()
                    + " (kraft.version 1) into " + metadataLogDir);
        }
        if (!bootstrap.isEmpty() && unformatted.contains(metadataLogDir)) {
            try {
                BootstrapMetadata.write(metadataLogDir, bootstrap);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write the bootstrap records into " + metadataLogDir + ": "
                        + e.getMessage(), e);
            }
            if (!features.isEmpty()) {
                out.println("Finalized " + features.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining(", ")) + " in the bootstrap records of " + metadataLogDir);
            }
            if (!credentials.isEmpty()) {
                out.println("Wrote " + credentials.size() + " SCRAM credential(s) into the bootstrap records of "
                        + metadataLogDir);
            }
        }
        out.flush();
    }

    /**
     * The voter set a dynamic quorum starts with, from {@code --standalone} (this node, its directory id filled in
     * once its directory is formatted), {@code --initial-controllers} or {@code --no-initial-controllers} (empty);
     * none of them keeps the static {@code controller.quorum.voters} (kraft.version 0).
     */
    private Optional<VoterSet> bootstrapVoters(ParsedConfig config) {
        int given = (standalone ? 1 : 0) + (initialControllers != null ? 1 : 0) + (noInitialControllers ? 1 : 0);
        if (given > 1) {
            throw new ParameterException(spec.commandLine(), "--standalone, --initial-controllers and"
                    + " --no-initial-controllers exclude each other");
        }
        int nodeId = config.getInt(NodeConfigs.NODE_ID);
        if (standalone) {
            String endpoint = NodeConfigs.controllerEndpoint(config).orElseThrow(() -> new ParameterException(
                    spec.commandLine(), "--standalone needs node " + nodeId + " in " + QuorumConfig.VOTERS
                            + " or a CONTROLLER listener for its controller address"));
            return Optional.of(VoterSet.of(List.of(new Voter(nodeId, Voter.UNKNOWN_DIRECTORY, endpoint))));
        }
        if (initialControllers != null) {
            VoterSet voters;
            try {
                voters = InitialControllers.parse(initialControllers);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "Invalid --initial-controllers: " + e.getMessage());
            }
            if (!voters.contains(nodeId)) {
                throw new ParameterException(spec.commandLine(), "Invalid --initial-controllers: this node (" + nodeId
                        + ") is not among " + voters.ids() + "; format it with --no-initial-controllers and add it");
            }
            return Optional.of(voters);
        }
        return noInitialControllers ? Optional.of(VoterSet.empty()) : Optional.empty();
    }

    /** The feature levels to finalize: the defaults with {@code --feature}'s changes, level 0 left out. */
    private Map<String, Integer> featureLevels() {
        Map<String, Integer> levels = new TreeMap<>(ClusterFeatures.FORMAT_DEFAULTS);
        for (String argument : featureLevels) {
            int equals = argument.indexOf('=');
            String name = equals < 0 ? argument : argument.substring(0, equals).trim();
            SupportedRange range = ClusterFeatures.SUPPORTED.get(name);
            if (range == null) {
                throw new ParameterException(spec.commandLine(), "Invalid --feature " + argument + ": unknown feature '"
                        + name + "' (known: " + String.join(", ", new TreeMap<>(ClusterFeatures.SUPPORTED).keySet())
                        + ")");
            }
            if (name.equals(ClusterFeatures.KRAFT_VERSION)) {
                throw new ParameterException(spec.commandLine(), "Invalid --feature " + argument + ": "
                        + ClusterFeatures.KRAFT_VERSION + " is 1 with --standalone, --initial-controllers or"
                        + " --no-initial-controllers and 0 without them");
            }
            int level;
            try {
                level = Integer.parseInt(equals < 0 ? "" : argument.substring(equals + 1).trim());
            } catch (NumberFormatException e) {
                throw new ParameterException(spec.commandLine(), "Invalid --feature " + argument
                        + ": expected NAME=LEVEL with a number");
            }
            if (level != 0 && (level < range.minLevel() || level > range.maxLevel())) {
                throw new ParameterException(spec.commandLine(), "Invalid --feature " + argument + ": " + name
                        + " supports levels " + range.minLevel() + " to " + range.maxLevel() + " (or 0, off)");
            }
            levels.put(name, level);
        }
        levels.values().removeIf(level -> level == 0);
        return levels;
    }

    /** The credentials of {@code --add-scram} as records; the passwords are not kept. */
    private List<MetadataRecord> bootstrapRecords() {
        List<MetadataRecord> records = new ArrayList<>();
        for (String argument : scramCredentials) {
            List<ScramCredentialArgument> credentials;
            try {
                credentials = ScramCredentialArgument.parseAll(argument);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "Invalid --add-scram: " + e.getMessage());
            }
            for (ScramCredentialArgument credential : credentials) {
                String name = credential.name().filter(n -> !n.isEmpty()).orElseThrow(() -> new ParameterException(
                        spec.commandLine(), "Invalid --add-scram: " + credential.mechanism() + "=[...] needs name=..."));
                records.add(ScramFunctions.credentialForPassword(name, credential.mechanism(), credential.password(),
                        credential.iterations()).toRecord());
            }
        }
        return records;
    }

    /** Rejects a --cluster-id that is not a Kafka-style uuid, before any file is read. */
    static final class ClusterIdConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!MetaProperties.isValidUuid(value)) {
                throw new TypeConversionException("'" + value + "' is not a cluster id: expected 22 URL-safe base64"
                        + " characters (16 bytes), e.g. the output of 'kraft-cli random-uuid'");
            }
            return value;
        }
    }
}
