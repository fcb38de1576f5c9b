package io.kraft.raft;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LIST;
import static io.kraft.config.Importance.HIGH;
import static io.kraft.config.Importance.MEDIUM;
import static io.kraft.config.Validator.atLeast;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The controller quorum settings under Kafka's names, types and defaults, parsed with the config module's
 * {@link ConfigDef}: the static voter set ({@code controller.quorum.voters = id@host:port,...}) and the timeouts in
 * milliseconds.
 */
public record QuorumConfig(Map<Integer, InetSocketAddress> voters, long electionTimeoutMs, long fetchTimeoutMs,
                           long electionBackoffMaxMs, long requestTimeoutMs) {

    public static final String VOTERS = "controller.quorum.voters";
    /**
     * Where a node without {@link #VOTERS} first looks for the quorum (KIP-853): host:port entries of controllers,
     * whose ids it learns from them.
     */
    public static final String BOOTSTRAP_SERVERS = "controller.quorum.bootstrap.servers";
    public static final String ELECTION_TIMEOUT_MS = "controller.quorum.election.timeout.ms";
    public static final String FETCH_TIMEOUT_MS = "controller.quorum.fetch.timeout.ms";
    public static final String ELECTION_BACKOFF_MAX_MS = "controller.quorum.election.backoff.max.ms";
    public static final String REQUEST_TIMEOUT_MS = "controller.quorum.request.timeout.ms";

    /** Kafka's defaults. */
    public static final int DEFAULT_ELECTION_TIMEOUT_MS = 1000;
    public static final int DEFAULT_FETCH_TIMEOUT_MS = 2000;
    public static final int DEFAULT_ELECTION_BACKOFF_MAX_MS = 1000;
    public static final int DEFAULT_REQUEST_TIMEOUT_MS = 2000;

    private static final ConfigDef DEFINITION = definition();

    public QuorumConfig {
        voters = Collections.unmodifiableMap(new TreeMap<>(voters));
        if (voters.isEmpty()) {
            throw new IllegalArgumentException(VOTERS + " must name at least one voter");
        }
    }

    /**
     * A fresh definition of the quorum settings, for a component that parses them or lists them among its own.
     * Voter entries are checked by {@link #parseVoters}, which says which entry is wrong and why.
     */
    public static ConfigDef definition() {
        return new ConfigDef()
                .define(VOTERS, LIST, "", HIGH,
                        "The voters of the controller quorum as id@host:port entries, e.g. 1@ctl1:9093,2@ctl2:9093;"
                                + " or set " + BOOTSTRAP_SERVERS + " instead.")
                .define(BOOTSTRAP_SERVERS, LIST, "", HIGH,
                        "Controllers to ask for the quorum's voters and leader, as host:port entries, e.g."
                                + " ctl1:9093,ctl2:9093 (KIP-853); the alternative to " + VOTERS + ".")
                .define(ELECTION_TIMEOUT_MS, INT, DEFAULT_ELECTION_TIMEOUT_MS, atLeast(1), HIGH,
                        "How long a voter waits without a leader before it stands for election (randomized up to "
                                + "twice this).")
                .define(FETCH_TIMEOUT_MS, INT, DEFAULT_FETCH_TIMEOUT_MS, atLeast(1), HIGH,
                        "How long a voter waits without a successful fetch before it presumes the leader gone.")
                .define(ELECTION_BACKOFF_MAX_MS, INT, DEFAULT_ELECTION_BACKOFF_MAX_MS, atLeast(1), HIGH,
                        "The longest random wait before a voter whose election round failed stands again.")
                .define(REQUEST_TIMEOUT_MS, INT, DEFAULT_REQUEST_TIMEOUT_MS, atLeast(1), MEDIUM,
                        "How long a quorum request may go unanswered before it is sent again.");
    }

    /**
     * Reads the settings from a node's properties, ignoring the keys other components own, with Kafka's defaults
     * (1000, 2000, 1000 and 2000 ms) for absent timeouts.
     *
     * @throws IllegalArgumentException with one line naming the key when a value is missing or invalid
     */
    public static QuorumConfig from(Map<String, String> properties) {
        return from(properties, Map.of());
    }

    /**
     * Like {@link #from(Map)}, with the voters' addresses a node learned from {@link #BOOTSTRAP_SERVERS} when the
     * properties set that instead of {@link #VOTERS}.
     *
     * @throws IllegalArgumentException also when both keys or neither are set, or bootstrap servers were given and
     *                                  {@code resolvedVoters} is empty
     */
    public static QuorumConfig from(Map<String, String> properties, Map<Integer, InetSocketAddress> resolvedVoters) {
        ParsedConfig config = parse(properties);
        Map<Integer, InetSocketAddress> voters;
        if (!config.getList(VOTERS).isEmpty()) {
            voters = parseVoters(config.getList(VOTERS));
        } else if (!resolvedVoters.isEmpty()) {
            voters = resolvedVoters;
        } else {
            throw new IllegalArgumentException(BOOTSTRAP_SERVERS + " names controllers, not voter ids: the node learns"
                    + " the voters from them before it starts");
        }
        return new QuorumConfig(voters, config.getInt(ELECTION_TIMEOUT_MS),
                config.getInt(FETCH_TIMEOUT_MS), config.getInt(ELECTION_BACKOFF_MAX_MS),
                config.getInt(REQUEST_TIMEOUT_MS));
    }

    /**
     * The addresses of {@link #BOOTSTRAP_SERVERS}; empty when the node sets {@link #VOTERS} instead.
     *
     * @throws IllegalArgumentException with one line when both keys or neither are set, or an entry is no host:port
     */
    public static List<InetSocketAddress> bootstrapServers(Map<String, String> properties) {
        ParsedConfig config = parse(properties);
        List<InetSocketAddress> servers = new ArrayList<>();
        for (String item : config.getList(BOOTSTRAP_SERVERS)) {
            String entry = item.trim();
            int colon = entry.lastIndexOf(':');
            int port = -1;
            try {
                port = colon > 0 ? Integer.parseInt(entry.substring(colon + 1)) : -1;
            } catch (NumberFormatException e) {
                // reported below
            }
            if (port <= 0 || port > 65535) {
                throw new IllegalArgumentException(BOOTSTRAP_SERVERS + " entry '" + entry + "' is not host:port");
            }
            String host = entry.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            servers.add(InetSocketAddress.createUnresolved(host, port));
        }
        return servers;
    }

    /** Parses the keys and checks that exactly one of the voters and the bootstrap servers is set, as Kafka does. */
    private static ParsedConfig parse(Map<String, String> properties) {
        ParsedConfig config;
        try {
            config = DEFINITION.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        boolean voters = !config.getList(VOTERS).isEmpty();
        boolean servers = !config.getList(BOOTSTRAP_SERVERS).isEmpty();
        if (voters && servers) {
            throw new IllegalArgumentException("set " + VOTERS + " or " + BOOTSTRAP_SERVERS + ", not both");
        }
        if (!voters && !servers) {
            throw new IllegalArgumentException("Missing required configuration: one of " + VOTERS + " (id@host:port,"
                    + "...) and " + BOOTSTRAP_SERVERS + " (host:port,...) must be set");
        }
        return config;
    }

    /**
     * Parses {@code 1@host:port,2@host:port}.
     *
     * @throws IllegalArgumentException naming the entry that is not {@code id@host:port}, or the voter named twice
     */
    public static Map<Integer, InetSocketAddress> parseVoters(String value) {
        return parseVoters(Arrays.asList(value.split(",")));
    }

    private static Map<Integer, InetSocketAddress> parseVoters(List<String> entries) {
        Map<Integer, InetSocketAddress> voters = new TreeMap<>();
        for (String item : entries) {
            String entry = item.trim();
            int at = entry.indexOf('@');
            int colon = entry.lastIndexOf(':');
            if (at <= 0 || colon <= at + 1 || colon == entry.length() - 1) {
                throw new IllegalArgumentException(VOTERS + " entry '" + entry + "' is not id@host:port");
            }
            int id;
            int port;
            try {
                id = Integer.parseInt(entry.substring(0, at));
                port = Integer.parseInt(entry.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(VOTERS + " entry '" + entry + "' has a non-numeric id or port");
            }
            if (id < 0 || port <= 0 || port > 65535) {
                throw new IllegalArgumentException(VOTERS + " entry '" + entry + "' has an id or port out of range");
            }
            String host = entry.substring(at + 1, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (voters.put(id, InetSocketAddress.createUnresolved(host, port)) != null) {
                throw new IllegalArgumentException(VOTERS + " names voter " + id + " twice");
            }
        }
        return voters;
    }

    /** The core's settings for {@code nodeId}, with a logical tick of {@code tickMs}. */
    public RaftConfig raftConfig(int nodeId, long tickMs, int fetchMaxEntries) {
        return RaftConfig.fromMillis(nodeId, voters.keySet(), tickMs, electionTimeoutMs, fetchTimeoutMs,
                electionBackoffMaxMs, requestTimeoutMs, fetchMaxEntries);
    }
}
