package io.kraft.cli;

import io.kraft.broker.network.Listeners;
import io.kraft.broker.network.NettyLeakDetection;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ParsedConfig;
import io.kraft.config.TopicConfigResolver;
import io.kraft.server.BrokerNode;
import io.kraft.server.CombinedNode;
import io.kraft.server.ControllerNode;
import io.kraft.server.ProcessStoppingFaultHandler;
import io.kraft.server.StartupTimeline;
import io.kraft.storage.DirectoryLock;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.controller.ClusterFeatures;
import io.kraft.storage.MetaProperties;
import io.kraft.storage.PreviousShutdown;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.apache.logging.log4j.LogManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli start}: runs a node in the roles its {@code process.roles} names (a dedicated controller, a
 * dedicated broker, or both combined) until it is stopped; SIGTERM closes it, a broker after a controlled shutdown.
 * Without {@code --config} it runs the single-node default from ./data, formatting it with a new cluster id the
 * first time.
 */
@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Starts a node in the roles process.roles names (controller, broker, or both) and runs it until stopped.")
final class StartCommand implements Runnable {
    /** Where the no-argument start keeps its configuration and data, relative to the working directory. */
    static final Path DEFAULT_DATA_DIR = Path.of("data");
    private static final String DEFAULT_CONFIG_RESOURCE = "/io/kraft/cli/config/server.properties";
    private static final Logger LOG = LoggerFactory.getLogger(StartCommand.class);

    @Spec
    private CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "The node's properties file; without it ./data/server.properties (created on first run).")
    private Path configFile;

    @Override
    public void run() {
        // Phases on other threads (election, registration) are watched only when the debug line is wanted.
        StartupTimeline timeline = StartupTimeline.sinceProcessStart(LOG.isDebugEnabled());
        // A node in production samples no buffers for leaks (tests and -Dio.netty.leakDetection.level still do).
        NettyLeakDetection.disableUnlessConfigured();
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
        timeline.end("config");
        RunningNode node = startNode(config, file, timeline);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            // Log4j's own hook is off: it would stop logging before the node had logged how it stopped.
            LogManager.shutdown();
            stopped.countDown();
        }, "kraft-shutdown"));
        try {
            // A broker accepts clients only once registered, caught up and unfenced; the line says it is serving.
            node.ready().get();
            timeline.end("ready");
            LOG.debug("Node {} start-up: {}", node.nodeId(), timeline.summary());
            out.println("kraft node " + node.nodeId() + " ready, listening: " + node.listening() + " ("
                    + node.previousShutdown().startDescription() + ")");
            out.println("stop with Ctrl-C or kill " + ProcessHandle.current().pid());
            out.flush();
            stopped.await();
        } catch (ExecutionException e) {
            throw new IllegalStateException("node " + node.nodeId() + " could not start serving: " + e.getCause(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A started node of any role: its id, what it listens on and how its previous run ended (for the start line), how
     * to stop it, and the locks on its directories, released once it is closed.
     */
    record RunningNode(int nodeId, String listening, PreviousShutdown previousShutdown, AutoCloseable node,
                       CompletableFuture<Void> ready, List<DirectoryLock> locks) {
        /** Closes the node; a failure to close is reported, since the process is ending anyway. */
        void close() {
            try {
                node.close();
            } catch (Exception e) {
                System.err.println("kraft node " + nodeId + " did not close cleanly: " + e);
            } finally {
                locks.forEach(DirectoryLock::close);
            }
        }
    }

    /**
     * Verifies and locks the directories and starts the node in the roles its configuration names.
     *
     * @throws DirectoryLock.DirectoryInUseException if another node uses one of the directories
     */
    static RunningNode startNode(ParsedConfig config, Path file) {
        return startNode(config, file, StartupTimeline.startingNow());
    }

    /** Like the other {@code startNode}, ending each phase of the start on {@code timeline}. */
    static RunningNode startNode(ParsedConfig config, Path file, StartupTimeline timeline) {
        List<Path> directories = NodeConfigs.allDirectories(config);
        Map<Path, MetaProperties> identities = MetaProperties.verify(directories, config.getInt(NodeConfigs.NODE_ID),
                file);
        String clusterId = identities.values().iterator().next().clusterId();
        // Before any file is opened for writing: two nodes on one directory would corrupt each other's logs.
        List<DirectoryLock> locks = DirectoryLock.acquireAll(directories);
        try {
            timeline.end("directories");
            return startLocked(config, clusterId, locks, timeline);
        } catch (RuntimeException e) {
            locks.forEach(DirectoryLock::close);
            throw e;
        }
    }

    private static RunningNode startLocked(ParsedConfig config, String clusterId, List<DirectoryLock> locks,
                                           StartupTimeline timeline) {
        List<String> roles = config.getList(NodeConfigs.PROCESS_ROLES);
        int nodeId = config.getInt(NodeConfigs.NODE_ID);
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(config));
        boolean broker = roles.contains(NodeConfigs.ROLE_BROKER);
        boolean controller = roles.contains(NodeConfigs.ROLE_CONTROLLER);
        try {
            if (broker && controller) {
                CombinedNode node = CombinedNode.start(nodeId, clusterId, metadataLogDir(config), clientListener(config),
                        config.originals(), topicConfigs, new ProcessStoppingFaultHandler(), timeline);
                return new RunningNode(nodeId, node.listening() + ", "
                        + controllerListening(config, node.controllerPort()), node.previousShutdown(), node,
                        node.ready(), locks);
            }
            if (controller) {
                ControllerNode node = ControllerNode.start(nodeId, clusterId, metadataLogDir(config), config.originals(),
                        topicConfigs);
                // A controller serves as soon as it runs: it can vote from the start.
                return new RunningNode(nodeId, controllerListening(config, node.controllerPort()),
                        node.previousShutdown(), node, CompletableFuture.completedFuture(null), locks);
            }
            BrokerNode node = BrokerNode.start(nodeId, clusterId, metadataLogDir(config), clientListener(config),
                    config.originals(), topicConfigs);
            return new RunningNode(nodeId, node.listening(), node.previousShutdown(), node, node.ready(), locks);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting node " + nodeId, e);
        }
    }

    private static Path metadataLogDir(ParsedConfig config) {
        return NodeConfigs.metadataLogDir(config);
    }

    /** The node's listeners: the broker serves those not named in controller.listener.names. */
    private static String clientListener(ParsedConfig config) {
        return String.join(",", config.getList(NodeConfigs.LISTENERS));
    }

    /** "CONTROLLER host:port", as the start line prints it. */
    private static String controllerListening(ParsedConfig config, int controllerPort) {
        Listeners.Listener listener = Listeners.parse(clientListener(config), config.originals())
                .controllerListeners().get(0);
        return listener.name() + " " + listener.host() + ":" + controllerPort;
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
        Path metadataLogDir = NodeConfigs.metadataLogDir(config);
        try {
            // A new cluster starts at the default feature levels, as after 'kraft-cli format'.
            BootstrapMetadata.write(metadataLogDir, ClusterFeatures.levelRecords(ClusterFeatures.FORMAT_DEFAULTS));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the bootstrap records into " + metadataLogDir + ": "
                    + e.getMessage(), e);
        }
        out.println("Formatted " + dirs + " with new cluster.id " + clusterId);
    }
}
