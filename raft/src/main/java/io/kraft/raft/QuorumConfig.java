package io.kraft.raft;

import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The controller quorum settings under Kafka's names, parsed from string properties: the static voter set
 * ({@code controller.quorum.voters = id@host:port,...}) and the timeouts in milliseconds.
 */
public record QuorumConfig(Map<Integer, InetSocketAddress> voters, long electionTimeoutMs, long fetchTimeoutMs,
                           long electionBackoffMaxMs, long requestTimeoutMs) {

    public static final String VOTERS = "controller.quorum.voters";
    public static final String ELECTION_TIMEOUT_MS = "controller.quorum.election.timeout.ms";
    public static final String FETCH_TIMEOUT_MS = "controller.quorum.fetch.timeout.ms";
    public static final String ELECTION_BACKOFF_MAX_MS = "controller.quorum.election.backoff.max.ms";
    public static final String REQUEST_TIMEOUT_MS = "controller.quorum.request.timeout.ms";

    public QuorumConfig {
        voters = Collections.unmodifiableMap(new TreeMap<>(voters));
        if (voters.isEmpty()) {
            throw new IllegalArgumentException(VOTERS + " must name at least one voter");
        }
    }

    /** Reads the settings, applying Kafka's defaults (1000, 2000, 1000 and 2000 ms) to absent timeouts. */
    public static QuorumConfig from(Map<String, String> properties) {
        String voters = properties.get(VOTERS);
        if (voters == null || voters.isBlank()) {
            throw new IllegalArgumentException(VOTERS + " is required (id@host:port,...)");
        }
        return new QuorumConfig(parseVoters(voters), positive(properties, ELECTION_TIMEOUT_MS, 1000),
                positive(properties, FETCH_TIMEOUT_MS, 2000), positive(properties, ELECTION_BACKOFF_MAX_MS, 1000),
                positive(properties, REQUEST_TIMEOUT_MS, 2000));
    }

    /** Parses {@code 1@host:port,2@host:port}. */
    public static Map<Integer, InetSocketAddress> parseVoters(String value) {
        Map<Integer, InetSocketAddress> voters = new TreeMap<>();
        for (String item : value.split(",")) {
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

    private static long positive(Map<String, String> properties, String name, long defaultValue) {
        String value = properties.get(name);
        if (value == null) {
            return defaultValue;
        }
        long parsed;
        try {
            parsed = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number of milliseconds but was '" + value + "'");
        }
        if (parsed <= 0) {
            throw new IllegalArgumentException(name + " must be positive but was " + parsed);
        }
        return parsed;
    }
}
