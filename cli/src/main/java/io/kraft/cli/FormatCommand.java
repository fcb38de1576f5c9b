package io.kraft.cli;

import io.kraft.config.ParsedConfig;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.MetaProperties;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code kraft-cli format}: writes meta.properties (cluster id, node id, a fresh directory id) into
 * every log directory and the metadata log directory of a node, so that the node can start; with
 * {@code --add-scram}, the SCRAM credentials a new cluster starts with (as {@code kafka-storage.sh format}). A new
 * cluster starts with the feature levels of {@link #DEFAULT_FEATURE_LEVELS}.
 */
@Command(name = "format", mixinStandardHelpOptions = true,
        description = "Formats the log directories and the metadata log directory of a node.")
final class FormatCommand implements Runnable {
    /** The feature levels a new cluster is formatted with (written with the bootstrap records). */
    static final Map<String, Integer> DEFAULT_FEATURE_LEVELS = Map.of(
            "eligible.leader.replicas.version", 1);

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

    @Override
    public void run() {
        ParsedConfig config = NodeConfigs.load(configFile);
        List<MetadataRecord> credentials = bootstrapRecords();
        List<MetadataRecord> bootstrap = new ArrayList<>(featureLevelRecords());
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
            MetaProperties.forNewDirectory(clusterId, nodeId).write(dir);
            out.println("Formatted " + dir + " with cluster.id " + clusterId + " and node.id " + nodeId);
        }
        if (!bootstrap.isEmpty() && unformatted.contains(metadataLogDir)) {
            try {
                BootstrapMetadata.write(metadataLogDir, bootstrap);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write the bootstrap records into " + metadataLogDir + ": "
                        + e.getMessage(), e);
            }
            if (!credentials.isEmpty()) {
                out.println("Wrote " + credentials.size() + " SCRAM credential(s) into the bootstrap records of "
                        + metadataLogDir);
            }
        }
        out.flush();
    }

    /** The feature levels a new cluster starts with, as records. */
    private static List<MetadataRecord> featureLevelRecords() {
        return DEFAULT_FEATURE_LEVELS.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(feature -> MetadataRecords.of(FeatureLevelRecord.newBuilder().setName(feature.getKey())
                        .setLevel(feature.getValue()).build()))
                .toList();
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
