package io.kraft.broker.network;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.MEDIUM;

import io.kraft.config.ConfigDef;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wire server's resource limits beyond request size and handler queue, under Kafka's names: memory held
 * by received requests, and how many connections are open and opened per second.
 *
 * @param queuedMaxRequestBytes bytes of received request frames held at once; reading pauses while they are
 *                              used up (Kafka's memory pool)
 * @param maxConnections connections open at once on the listener
 * @param maxConnectionsPerIp connections open at once from one client address
 * @param maxConnectionsPerIpOverrides per-address (or host name) exceptions to {@code maxConnectionsPerIp}
 * @param maxConnectionCreationRate new connections accepted per second; faster arrivals wait in the backlog
 * @param queuedMaxRequestStallMs how long a request may take to arrive, while others wait for request memory,
 *                                before its connection is closed (not a Kafka key: Kafka has no such bound)
 */
public record NetworkLimits(long queuedMaxRequestBytes, int maxConnections, int maxConnectionsPerIp,
                            Map<String, Integer> maxConnectionsPerIpOverrides, int maxConnectionCreationRate,
                            long queuedMaxRequestStallMs) {
    public static final String QUEUED_MAX_REQUEST_BYTES = "queued.max.request.bytes";
    public static final String MAX_CONNECTIONS = "max.connections";
    public static final String MAX_CONNECTIONS_PER_IP = "max.connections.per.ip";
    public static final String MAX_CONNECTIONS_PER_IP_OVERRIDES = "max.connections.per.ip.overrides";
    public static final String MAX_CONNECTION_CREATION_RATE = "max.connection.creation.rate";
    public static final String QUEUED_MAX_REQUEST_STALL_MS = "queued.max.request.stall.ms";

    /**
     * Kafka's default, but not Kafka's meaning: there -1 leaves request memory unbounded, which lets a few
     * connections with 100 MiB frames exhaust the heap; here it sizes the pool from the heap
     * ({@link #automaticRequestBytes}). A positive value is taken as given.
     */
    public static final long DEFAULT_QUEUED_MAX_REQUEST_BYTES = -1L;
    public static final int DEFAULT_MAX_CONNECTIONS = Integer.MAX_VALUE;
    public static final int DEFAULT_MAX_CONNECTIONS_PER_IP = Integer.MAX_VALUE;
    public static final int DEFAULT_MAX_CONNECTION_CREATION_RATE = Integer.MAX_VALUE;
    /**
     * Long enough for 100 MiB over a link of about 100 Mbit/s; a Kafka client gives up on a request after 30 s
     * ({@code request.timeout.ms}) anyway.
     */
    public static final long DEFAULT_QUEUED_MAX_REQUEST_STALL_MS = 10_000L;

    public NetworkLimits {
        if (queuedMaxRequestBytes == 0 || queuedMaxRequestBytes < -1) {
            throw new InvalidServerConfigException(QUEUED_MAX_REQUEST_BYTES + " must be positive or -1 (automatic), got "
                    + queuedMaxRequestBytes);
        }
        requirePositive(MAX_CONNECTIONS, maxConnections);
        requirePositive(MAX_CONNECTIONS_PER_IP, maxConnectionsPerIp);
        requirePositive(MAX_CONNECTION_CREATION_RATE, maxConnectionCreationRate);
        if (queuedMaxRequestStallMs < 1) {
            throw new InvalidServerConfigException(QUEUED_MAX_REQUEST_STALL_MS + " must be positive, got "
                    + queuedMaxRequestStallMs);
        }
        maxConnectionsPerIpOverrides = Map.copyOf(maxConnectionsPerIpOverrides);
        maxConnectionsPerIpOverrides.forEach((host, limit) -> {
            if (limit < 0) {
                throw new InvalidServerConfigException(MAX_CONNECTIONS_PER_IP_OVERRIDES + " for " + host
                        + " must not be negative, got " + limit);
            }
        });
    }

    /** No limit beyond the automatic request memory: Kafka's defaults. */
    public static NetworkLimits defaults() {
        return new NetworkLimits(DEFAULT_QUEUED_MAX_REQUEST_BYTES, DEFAULT_MAX_CONNECTIONS,
                DEFAULT_MAX_CONNECTIONS_PER_IP, Map.of(), DEFAULT_MAX_CONNECTION_CREATION_RATE,
                DEFAULT_QUEUED_MAX_REQUEST_STALL_MS);
    }

    /** The keys, for a node's configuration (types, defaults, docs). */
    static void define(ConfigDef def) {
        def.define(QUEUED_MAX_REQUEST_BYTES, LONG, DEFAULT_QUEUED_MAX_REQUEST_BYTES, MEDIUM,
                        "Bytes of received requests held at once; reading pauses while they are used up. -1 sizes it"
                                + " from the heap: an eighth of -Xmx, at least socket.request.max.bytes.")
                .define(MAX_CONNECTIONS, INT, DEFAULT_MAX_CONNECTIONS, MEDIUM,
                        "Connections open at once on the listener; more are closed as they arrive.")
                .define(MAX_CONNECTIONS_PER_IP, INT, DEFAULT_MAX_CONNECTIONS_PER_IP, MEDIUM,
                        "Connections open at once from one address; more are closed as they arrive.")
                .define(MAX_CONNECTIONS_PER_IP_OVERRIDES, STRING, "", MEDIUM,
                        "Exceptions to max.connections.per.ip: host:limit pairs separated by commas.")
                .define(MAX_CONNECTION_CREATION_RATE, INT, DEFAULT_MAX_CONNECTION_CREATION_RATE, MEDIUM,
                        "New connections accepted per second; faster arrivals wait in the accept backlog.")
                .define(QUEUED_MAX_REQUEST_STALL_MS, LONG, DEFAULT_QUEUED_MAX_REQUEST_STALL_MS, MEDIUM,
                        "While connections wait for request memory (queued.max.request.bytes), a connection whose"
                                + " request has been arriving for longer than this is closed, so requests left"
                                + " half-sent cannot hold the memory for good. Time its reading was paused does not"
                                + " count.");
    }

    /** Reads the limits from Kafka-named properties; absent ones take the defaults. */
    static NetworkLimits fromProperties(Map<String, String> props) {
        return new NetworkLimits(
                longProp(props, QUEUED_MAX_REQUEST_BYTES, DEFAULT_QUEUED_MAX_REQUEST_BYTES),
                (int) longProp(props, MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS),
                (int) longProp(props, MAX_CONNECTIONS_PER_IP, DEFAULT_MAX_CONNECTIONS_PER_IP),
                parseOverrides(props.getOrDefault(MAX_CONNECTIONS_PER_IP_OVERRIDES, "")),
                (int) longProp(props, MAX_CONNECTION_CREATION_RATE, DEFAULT_MAX_CONNECTION_CREATION_RATE),
                longProp(props, QUEUED_MAX_REQUEST_STALL_MS, DEFAULT_QUEUED_MAX_REQUEST_STALL_MS));
    }

    /** The request memory in bytes: the configured value, or for -1 an eighth of the heap (at least one frame). */
    long requestMemoryBytes(int requestMaxBytes) {
        return queuedMaxRequestBytes > 0 ? queuedMaxRequestBytes
                : automaticRequestBytes(Runtime.getRuntime().maxMemory(), requestMaxBytes);
    }

    /**
     * An eighth of the heap, at least one largest frame: frames live in direct memory beside the heap, so with
     * the one overdraft and the parse of a frame this keeps the process near its heap size (1 GiB heap: 128 MiB).
     */
    static long automaticRequestBytes(long maxHeapBytes, int requestMaxBytes) {
        return Math.max(maxHeapBytes / 8, requestMaxBytes);
    }

    /** The most connections {@code host} (an address or name) may hold. */
    int maxConnectionsFor(String... hostNames) {
        for (String host : hostNames) {
            Integer limit = host == null ? null : maxConnectionsPerIpOverrides.get(host);
            if (limit != null) {
                return limit;
            }
        }
        return maxConnectionsPerIp;
    }

    private static Map<String, Integer> parseOverrides(String text) {
        Map<String, Integer> overrides = new LinkedHashMap<>();
        for (String entry : text.split(",")) {
            String pair = entry.trim();
            if (pair.isEmpty()) {
                continue;
            }
            int colon = pair.lastIndexOf(':');
            if (colon <= 0) {
                throw new InvalidServerConfigException(MAX_CONNECTIONS_PER_IP_OVERRIDES + " entry '" + pair
                        + "' is not of the form host:limit");
            }
            overrides.put(pair.substring(0, colon).trim(),
                    (int) parseLong(MAX_CONNECTIONS_PER_IP_OVERRIDES, pair.substring(colon + 1).trim()));
        }
        return overrides;
    }

    private static long longProp(Map<String, String> props, String name, long defaultValue) {
        String value = props.get(name);
        return value == null ? defaultValue : parseLong(name, value.trim());
    }

    private static long parseLong(String name, String value) {
        try {
            long parsed = Long.parseLong(value);
            if (!name.equals(QUEUED_MAX_REQUEST_BYTES) && !name.equals(QUEUED_MAX_REQUEST_STALL_MS) && (parsed > Integer.MAX_VALUE || parsed < Integer.MIN_VALUE)) {
                throw new InvalidServerConfigException(name + " must be an integer, got '" + value + "'");
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new InvalidServerConfigException(name + " must be a number, got '" + value + "'");
        }
    }

    private static void requirePositive(String name, int value) {
        if (value < 1) {
            throw new InvalidServerConfigException(name + " must be positive, got " + value);
        }
    }
}
