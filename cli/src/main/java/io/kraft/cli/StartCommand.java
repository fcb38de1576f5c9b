package io.kraft.cli;

import io.kraft.broker.node.CombinedNode;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigException;
import io.kraft.config.ParsedConfig;
import io.kraft.config.TopicConfigResolver;
import io.kraft.storage.MetaProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli start}: runs a combined node (broker and controller) until it is stopped. Without
 * {@code --config} it runs the single-node default from ./data, formatting it with a new cluster id the first time.
 */
@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Starts a combined node (process.roles=broker,controller) and runs it until stopped.")
final class StartCommand implements Runnable {
    /** Where the no-argument start keeps its configuration and data, relative to the working directory. */
    static final Path DEFAULT_DATA_DIR = Path.of("data");
    private static final String DEFAULT_CONFIG_RESOURCE = "/io/kraft/cli/config/server.properties";

    @Spec
    private CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "The node's properties file; without it ./data/server.properties (created on first run).")
    private Path configFile;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        Path file = configFile;
        ParsedConfig config;
        if (file == null) {
            file = defaultConfigFile(out);
            config = NodeConfigs.load(file);
            formatIfNew(config, out);
        } else {
            config = NodeConfigs.load(file);
        }
        CombinedNode node = startNode(config, file);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            stopped.countDown();
        }, "kraft-shutdown"));
        out.println("kraft node " + node.nodeId() + " listening: " + node.clientListener().listenerName() + " "
                + node.clientListener().host() + ":" + node.clientPort() + ", " + NodeConfigs.CONTROLLER_LISTENER + " "
                + controllerHost(config) + ":" + node.controllerPort());
        out.println("stop with Ctrl-C or kill " + ProcessHandle.current().pid());
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Verifies the directories and starts the node; refuses any role set other than the combined one. */
    static CombinedNode startNode(ParsedConfig config, Path file) {
        List<String> roles = config.getList(NodeConfigs.PROCESS_ROLES);
        if (!(roles.size() == 2 && roles.contains(NodeConfigs.ROLE_BROKER) && roles.contains(NodeConfigs.ROLE_CONTROLLER))) {
            throw new ConfigException(NodeConfigs.PROCESS_ROLES + " is " + String.join(",", roles) + " in " + file
                    + ", but start runs only combined nodes: set process.roles=broker,controller");
        }
        int nodeId = config.getInt(NodeConfigs.NODE_ID);
        Map<Path, MetaProperties> identities = MetaProperties.verify(NodeConfigs.allDirectories(config), nodeId, file);
        String clusterId = identities.values().iterator().next().clusterId();
        try {
            return CombinedNode.start(nodeId, clusterId, metadataLogDir(config), clientListener(config),
                    config.originals(), new TopicConfigResolver(BrokerLogSettings.from(config)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting node " + nodeId, e);
        }
    }

    private static Path metadataLogDir(ParsedConfig config) {
        String dir = config.getString(NodeConfigs.METADATA_LOG_DIR);
        return Path.of(dir != null ? dir : BrokerLogSettings.from(config).logDirs().get(0));
    }

    /** The first listener that is not the CONTROLLER one: validation guarantees a combined node has one. */
    private static String clientListener(ParsedConfig config) {
        return config.getList(NodeConfigs.LISTENERS).stream()
                .filter(l -> !ListenerListValidator.listenerName(l).equals(NodeConfigs.CONTROLLER_LISTENER))
                .findFirst().orElseThrow();
    }

    private static String controllerHost(ParsedConfig config) {
        String listener = config.getList(NodeConfigs.LISTENERS).stream()
                .filter(l -> ListenerListValidator.listenerName(l).equals(NodeConfigs.CONTROLLER_LISTENER))
                .findFirst().orElseThrow();
        return listener.substring(listener.indexOf("://") + 3, listener.lastIndexOf(':'));
    }

    /** ./data/server.properties, copied from the distribution's default the first time. */
    private static Path defaultConfigFile(PrintWriter out) {
        Path file = DEFAULT_DATA_DIR.resolve("server.properties");
        if (Files.exists(file)) {
            return file;
        }
        try (InputStream defaults = StartCommand.class.getResourceAsStream(DEFAULT_CONFIG_RESOURCE)) {
            if (defaults == null) {
                throw new IllegalStateException("the jar lacks " + DEFAULT_CONFIG_RESOURCE + ": rebuild the distribution");
            }
            Files.createDirectories(DEFAULT_DATA_DIR);
            Files.copy(defaults, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file + ": " + e.getMessage(), e);
        }
        out.println("Wrote the default configuration to " + file);
        return file;
    }

    /** Formats every directory with a new cluster id when none is formatted yet; a later run reuses them. */
    private static void formatIfNew(ParsedConfig config, PrintWriter out) {
        List<Path> dirs = NodeConfigs.allDirectories(config);
        List<Path> unformatted = new ArrayList<>();
        for (Path dir : dirs) {
            if (MetaProperties.read(dir).isEmpty()) {
                unformatted.add(dir);
            }
        }
        if (unformatted.size() < dirs.size()) {
            return;
        }
        String clusterId = MetaProperties.randomUuid();
        int nodeId = config.getInt(NodeConfigs.NODE_ID);
        for (Path dir : unformatted) {
            MetaProperties.forNewDirectory(clusterId, nodeId).write(dir);
        }
        out.println("Formatted " + dirs + " with new cluster.id " + clusterId);
    }
}
