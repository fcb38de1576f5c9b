package io.kraft.cli;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LIST;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.HIGH;

import io.kraft.broker.config.BrokerConfigs;
import io.kraft.broker.group.GroupConfig;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.group.share.ShareGroupConfig;
import io.kraft.broker.group.share.state.ShareCoordinatorConfig;
import io.kraft.broker.lifecycle.BrokerLifecycleConfig;
import io.kraft.broker.network.Listeners;
import io.kraft.broker.network.SaslSettings;
import io.kraft.broker.network.SocketServerConfig;
import io.kraft.broker.network.SslContextFactory;
import io.kraft.broker.network.SslSettings;
import io.kraft.broker.quota.QuotaWindows;
import io.kraft.broker.replica.ReplicaManagerConfig;
import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigKey;
import io.kraft.config.ConfigLoader;
import io.kraft.config.LogConfigs;
import io.kraft.config.ParsedConfig;
import io.kraft.config.Validator;
import io.kraft.metadata.authorizer.AuthorizerConfig;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.LeaderBalanceSettings;
import io.kraft.metadata.controller.TransactionSettings;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.server.grpc.ControlPlaneSecurity;
import io.kraft.server.http.HttpListenerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The settings a node reads from its properties file (Kafka's names): identity, roles, quorum,
 * listeners and directories, plus the broker-level log settings of {@link LogConfigs} and the controller's
 * settings of {@link ControllerSettings}. Candidates
 * for the config module once the broker reads them too.
 */
public final class NodeConfigs {
    public static final String NODE_ID = "node.id";
    public static final String PROCESS_ROLES = "process.roles";
    public static final String CONTROLLER_QUORUM_VOTERS = "controller.quorum.voters";
    public static final String CONTROLLER_QUORUM_BOOTSTRAP_SERVERS = "controller.quorum.bootstrap.servers";
    public static final String LISTENERS = "listeners";
    public static final String METADATA_LOG_DIR = "metadata.log.dir";

    public static final String ROLE_BROKER = "broker";
    public static final String ROLE_CONTROLLER = "controller";
    /** The default name of the listener that carries the gRPC control plane (controller.listener.names). */
    public static final String CONTROLLER_LISTENER = "CONTROLLER";

    private static final ConfigDef DEFINITION = withControllerKeys(LogConfigs.addTo(new ConfigDef()
            .define(NODE_ID, INT, ConfigDef.NO_DEFAULT, Validator.atLeast(0), HIGH,
                    "The id of this node, unique in the cluster; a controller's id must be among the voters.")
            .define(PROCESS_ROLES, LIST, ConfigDef.NO_DEFAULT,
                    Validator.nonEmptyList().and(Validator.itemsIn(ROLE_BROKER, ROLE_CONTROLLER)), HIGH,
                    "The roles this node plays: broker, controller, or broker,controller (combined).")
            .define(CONTROLLER_QUORUM_VOTERS, LIST, "", new VoterListValidator(), HIGH,
                    "The controller quorum as id@host:port entries, e.g. 1@localhost:9093,2@localhost:9094;"
                            + " or set controller.quorum.bootstrap.servers instead.")
            .define(LISTENERS, LIST, "PLAINTEXT://:9092", Validator.nonEmptyList().and(new ListenerListValidator()), HIGH,
                    "The addresses this node listens on as NAME://host:port; CONTROLLER carries the control plane.")
            .define(METADATA_LOG_DIR, STRING, null, Validator.nonEmptyString(), HIGH,
                    "The directory holding the metadata log; when unset the first log directory.")));

    private NodeConfigs() {
    }

    /**
     * Adds the quorum's, the controller's and the broker components' keys (controller.quorum.*, metadata.max.*,
     * broker.session.timeout.ms, group.*, replica.*, socket.*, ...) so a node file may set them without an "unknown configuration" warning.
     */
    private static ConfigDef withControllerKeys(ConfigDef definition) {
        for (ConfigDef component : List.of(ControllerSettings.definition(), BrokerConfigs.definition(),
                SocketServerConfig.definition(), ReplicaManagerConfig.definition(), ReplicationConfig.definition(),
                BrokerLifecycleConfig.definition(), GroupConfig.definition(), ConsumerGroupConfig.definition(),
                ShareGroupConfig.definition(), ShareCoordinatorConfig.definition(),
                QuorumConfig.definition(), MetadataLogRetention.definition(), TransactionSettings.definition(),
                HttpListenerConfig.definition(), LeaderBalanceSettings.definition(), SslSettings.definition(),
                AuthorizerConfig.definition(), SaslSettings.definition(), ControlPlaneSecurity.definition(),
                QuotaWindows.definition())) {
            for (ConfigKey key : component.keys()) {
                if (!definition.contains(key.name())) {
                    definition.define(key);
                }
            }
        }
        // Per-listener settings (listener.name.<name>.ssl.*, .sasl.*) are read by the listener they name.
        return definition.alsoKnown(key -> SslSettings.isListenerKey(key) || SaslSettings.isListenerKey(key));
    }

    /** The shared definition; parse with it, never define more keys in it. */
    public static ConfigDef definition() {
        return DEFINITION;
    }

    /**
     * Reads and validates a node's properties file, including the rules that span several keys.
     *
     * @throws ConfigException with one line naming the problem
     */
    public static ParsedConfig load(Path file) {
        ParsedConfig config = ConfigLoader.load(DEFINITION, file, List.of());
        validate(config);
        return config;
    }

    /**
     * Checks the rules that span keys: no duplicate roles, a controller is a voter and has a CONTROLLER
     * listener, a broker-only node is not a voter, a broker has a listener for clients, listener names and voter
     * ids are unique.
     *
     * @throws ConfigException with one line naming the problem
     */
    public static void validate(ParsedConfig config) {
        List<String> roles = config.getList(PROCESS_ROLES);
        if (new HashSet<>(roles).size() != roles.size()) {
            throw ConfigException.invalidValue(PROCESS_ROLES, String.join(",", roles), "each role at most once");
        }
        int nodeId = config.getInt(NODE_ID);
        List<Integer> voterIds = new ArrayList<>();
        for (String voter : config.getList(CONTROLLER_QUORUM_VOTERS)) {
            int id = VoterListValidator.voterId(voter);
            if (voterIds.contains(id)) {
                throw ConfigException.invalidValue(CONTROLLER_QUORUM_VOTERS,
                        String.join(",", config.getList(CONTROLLER_QUORUM_VOTERS)), "each voter id at most once, but " + id + " repeats");
            }
            voterIds.add(id);
        }
        Set<String> listenerNames = new LinkedHashSet<>();
        for (String listener : config.getList(LISTENERS)) {
            String name = ListenerListValidator.listenerName(listener);
            if (!listenerNames.add(name)) {
                throw ConfigException.invalidValue(LISTENERS, String.join(",", config.getList(LISTENERS)),
                        "each listener name at most once, but " + name + " repeats");
            }
        }
        // Protocols, ports, advertised and inter-broker names: the broker's own rules, checked before anything starts.
        Listeners listeners = Listeners.parse(String.join(",", config.getList(LISTENERS)), config.originals());
        String controllerListener = listeners.controllerNames().isEmpty() ? CONTROLLER_LISTENER
                : listeners.controllerNames().get(0);
        // Exactly one of the voters and the bootstrap servers, as Kafka requires; the entries' own form too.
        try {
            QuorumConfig.bootstrapServers(config.originals());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        boolean staticVoters = !voterIds.isEmpty();
        if (roles.contains(ROLE_CONTROLLER)) {
            if (staticVoters && !voterIds.contains(nodeId)) {
                throw new ConfigException("node.id " + nodeId + " is not among the controller.quorum.voters "
                        + voterIds + ", but process.roles includes controller: add " + nodeId + "@host:port to the voters");
            }
            if (!listenerNames.contains(controllerListener)) {
                throw new ConfigException("listeners " + listenerNames + " has no " + controllerListener
                        + " listener, but process.roles includes controller: add " + controllerListener + "://host:port");
            }
        }
        if (!roles.contains(ROLE_CONTROLLER) && voterIds.contains(nodeId)) {
            throw new ConfigException("node.id " + nodeId + " is among the controller.quorum.voters " + voterIds
                    + ", but process.roles is " + String.join(",", roles) + ": a broker-only node needs an id of its own"
                    + " (or add the controller role)");
        }
        if (roles.contains(ROLE_BROKER) && listeners.brokerListeners().isEmpty()) {
            throw new ConfigException("listeners " + listenerNames + " has no listener for clients, but process.roles"
                    + " includes broker: add e.g. PLAINTEXT://host:9092");
        }
        if (roles.contains(ROLE_BROKER)) {
            SslContextFactory.check(listeners, config.originals());
            // authorizer.class.name names a class this broker has (only Kafka's StandardAuthorizer), super.users parses.
            AuthorizerConfig.fromProperties(config.originals());
            // Mechanisms served, PLAIN's users, the inter-broker login: refused here rather than at the first client.
            for (Listeners.Listener listener : listeners.brokerListeners()) {
                if (listener.protocol().sasl()) {
                    SaslSettings.forListener(listener.name(), config.originals());
                }
            }
            listeners.interBrokerListener().filter(l -> l.protocol().sasl())
                    .ifPresent(l -> SaslSettings.interBrokerLogin(l.name(), config.originals()));
        }
        // The control plane's key material (when its listener is SSL), on every node: each one connects to it.
        ControlPlaneSecurity.from(config.originals());
    }

    /**
     * Where the other voters reach this controller, as host:port: its {@code controller.quorum.voters} entry, else
     * (with {@code controller.quorum.bootstrap.servers}) its CONTROLLER listener, an empty host meaning localhost.
     */
    public static Optional<String> controllerEndpoint(ParsedConfig config) {
        int nodeId = config.getInt(NODE_ID);
        List<String> voters = config.getList(CONTROLLER_QUORUM_VOTERS);
        if (!voters.isEmpty()) {
            return Optional.ofNullable(QuorumConfig.parseVoters(String.join(",", voters)).get(nodeId))
                    .map(a -> a.getHostString() + ":" + a.getPort());
        }
        return Listeners.parse(String.join(",", config.getList(LISTENERS)), config.originals()).controllerListeners()
                .stream().findFirst().map(l -> (l.host().isEmpty() ? "localhost" : l.host()) + ":" + l.port());
    }

    /** The metadata log's directory: {@code metadata.log.dir}, else the first log directory. */
    public static Path metadataLogDir(ParsedConfig config) {
        String dir = config.getString(METADATA_LOG_DIR);
        return Path.of(dir != null ? dir : BrokerLogSettings.from(config).logDirs().get(0));
    }

    /**
     * Every directory the node writes to: the log directories, then the metadata log directory if it
     * is not one of them, as given in the file (relative paths stay relative to the working directory).
     */
    public static List<Path> allDirectories(ParsedConfig config) {
        Set<Path> dirs = new LinkedHashSet<>();
        BrokerLogSettings.from(config).logDirs().forEach(dir -> dirs.add(Path.of(dir)));
        String metadataLogDir = config.getString(METADATA_LOG_DIR);
        if (metadataLogDir != null) {
            dirs.add(Path.of(metadataLogDir));
        }
        return List.copyOf(dirs);
    }
}
