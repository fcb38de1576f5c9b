package io.kraft.cli;

import io.kraft.cli.client.ClientProperties;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options every admin command shares (as Kafka's tools name them): where the cluster is and client properties. */
final class AdminConnectionOptions {
    @Option(names = "--bootstrap-server", required = true, paramLabel = "HOST:PORT",
            description = "The Kafka listener(s) to connect to, comma-separated.")
    private String bootstrapServer;

    @Option(names = "--command-config", paramLabel = "FILE", description = "Admin client properties.")
    private Path commandConfig;

    /** The admin client's properties: the bootstrap servers over the --command-config file. */
    Map<String, Object> adminProperties() {
        return ClientProperties.of(bootstrapServer, commandConfig, List.of());
    }
}
