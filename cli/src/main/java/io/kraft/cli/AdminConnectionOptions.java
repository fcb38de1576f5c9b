package io.kraft.cli;

import io.kraft.cli.client.ClientFailures;
import io.kraft.cli.client.ClientProperties;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Option;

/**
 * The options every admin command shares (as Kafka's tools name them): where the cluster is and client properties;
 * and how a command runs against the cluster, a failure ending as one "Error:" line.
 */
final class AdminConnectionOptions {
    /** What a command does with the admin client; answers the exit code. */
    interface AdminWork {
        int run(Admin admin) throws ExecutionException, InterruptedException;
    }

    @Option(names = "--bootstrap-server", required = true, paramLabel = "HOST:PORT",
            description = "The Kafka listener(s) to connect to, comma-separated.")
    private String bootstrapServer;

    @Option(names = "--command-config", paramLabel = "FILE", description = "Admin client properties.")
    private Path commandConfig;

    /** The admin client's properties: the bootstrap servers over the --command-config file. */
    Map<String, Object> adminProperties() {
        return ClientProperties.of(bootstrapServer, commandConfig, List.of());
    }

    /**
     * Runs {@code work} with an admin client built from {@code properties} (see {@link #adminProperties()}); a failure
     * becomes one "Error:" line on {@code err} and exit code 1.
     */
    static int run(Map<String, Object> properties, PrintWriter out, PrintWriter err, AdminWork work) {
        ClientProperties.quietClientLogging();
        try (Admin admin = Admin.create(properties)) {
            int exitCode = work.run(admin);
            out.flush();
            err.flush();
            return exitCode;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("Error: interrupted");
            err.flush();
            return KraftCli.EXIT_FAILURE;
        } catch (ExecutionException | RuntimeException e) {
            out.flush();
            err.println("Error: " + ClientFailures.message(e));
            err.flush();
            return KraftCli.EXIT_FAILURE;
        }
    }
}
