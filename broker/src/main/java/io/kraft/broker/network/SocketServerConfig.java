package io.kraft.broker.network;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.ConfigType.LIST;
import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.HIGH;
import static io.kraft.config.Importance.MEDIUM;

import io.kraft.config.ConfigDef;
import java.util.Map;

/**
 * The wire server's settings under Kafka's names: the listener to bind and the limits that keep one
 * client from exhausting the broker (request size, handler queue, idle connections).
 *
 * @param listenerName name of the listener (e.g. PLAINTEXT), matched against brokers' registered endpoints
 * @param host host to bind; empty binds every interface
 * @param port port to bind; 0 picks an ephemeral port
 * @param sendBufferBytes SO_SNDBUF of client connections, or -1 for the operating system's (auto-tuned) default
 * @param receiveBufferBytes SO_RCVBUF of client connections, or -1 for the operating system's (auto-tuned) default
 * @param limits request memory and connection limits
 */
public record SocketServerConfig(String listenerName, String host, int port, int requestMaxBytes, int networkThreads,
                                 int ioThreads, int queuedMaxRequests, long connectionsMaxIdleMs, int sendBufferBytes,
                                 int receiveBufferBytes, NetworkLimits limits) {
    public static final String LISTENERS = "listeners";
    public static final String SOCKET_REQUEST_MAX_BYTES = "socket.request.max.bytes";
    public static final String NUM_NETWORK_THREADS = "num.network.threads";
    public static final String NUM_IO_THREADS = "num.io.threads";
    public static final String QUEUED_MAX_REQUESTS = "queued.max.requests";
    public static final String CONNECTIONS_MAX_IDLE_MS = "connections.max.idle.ms";
    public static final String SOCKET_SEND_BUFFER_BYTES = "socket.send.buffer.bytes";
    public static final String SOCKET_RECEIVE_BUFFER_BYTES = "socket.receive.buffer.bytes";
    public static final String ADVERTISED_LISTENERS = "advertised.listeners";
    public static final String CONTROLLER_LISTENER_NAMES = "controller.listener.names";
    public static final String LISTENER_SECURITY_PROTOCOL_MAP = "listener.security.protocol.map";

    public static final String DEFAULT_LISTENERS = "PLAINTEXT://:9092";
    public static final int DEFAULT_SOCKET_REQUEST_MAX_BYTES = 104_857_600;
    public static final int DEFAULT_NUM_NETWORK_THREADS = 3;
    public static final int DEFAULT_NUM_IO_THREADS = 8;
    public static final int DEFAULT_QUEUED_MAX_REQUESTS = 500;
    public static final long DEFAULT_CONNECTIONS_MAX_IDLE_MS = 600_000L;
    /**
     * Kafka's default. A bounded send buffer also costs less kernel time per fetched byte than Linux's auto-tuned
     * one (up to tcp_wmem's 4 MiB): sendfile then moves ~100 KiB per call instead of ~1 MiB, and the broker's
     * system CPU per consumed GiB fell by about a third in ConsumerPerformance runs (1 KiB records, 6 partitions).
     */
    public static final int DEFAULT_SOCKET_SEND_BUFFER_BYTES = 102_400;
    /** Kafka's default. */
    public static final int DEFAULT_SOCKET_RECEIVE_BUFFER_BYTES = 102_400;
    /** The value that leaves a socket buffer size to the operating system. */
    public static final int OS_DEFAULT_BUFFER_BYTES = -1;

    public SocketServerConfig {
        if (listenerName == null || listenerName.isEmpty()) {
            throw new InvalidServerConfigException("Listener name must not be empty");
        }
        if (host == null) {
            throw new InvalidServerConfigException("Listener " + listenerName + " has a null host");
        }
        requireRange(LISTENERS + " port", port, 0, 65_535);
        requireRange(SOCKET_REQUEST_MAX_BYTES, requestMaxBytes, 1, Integer.MAX_VALUE);
        requireRange(NUM_NETWORK_THREADS, networkThreads, 1, Integer.MAX_VALUE);
        requireRange(NUM_IO_THREADS, ioThreads, 1, Integer.MAX_VALUE);
        requireRange(QUEUED_MAX_REQUESTS, queuedMaxRequests, 1, Integer.MAX_VALUE);
        if (connectionsMaxIdleMs < 1) {
            throw new InvalidServerConfigException(CONNECTIONS_MAX_IDLE_MS + " must be positive, got " + connectionsMaxIdleMs);
        }
        if (limits == null) {
            throw new InvalidServerConfigException("Listener " + listenerName + " has no network limits");
        }
        if (sendBufferBytes != OS_DEFAULT_BUFFER_BYTES) {
            requireRange(SOCKET_SEND_BUFFER_BYTES + " (or -1 for the OS default)", sendBufferBytes, 1, Integer.MAX_VALUE);
        }
        if (receiveBufferBytes != OS_DEFAULT_BUFFER_BYTES) {
            requireRange(SOCKET_RECEIVE_BUFFER_BYTES + " (or -1 for the OS default)", receiveBufferBytes, 1,
                    Integer.MAX_VALUE);
        }
    }

    /** The wire server's keys, so a node's configuration knows them (types, defaults, docs). */
    public static ConfigDef definition() {
        ConfigDef def = new ConfigDef()
                .define(LISTENERS, LIST, DEFAULT_LISTENERS, HIGH,
                        "The listeners to bind, NAME://host:port; each not named in controller.listener.names serves"
                                + " Kafka clients, bound to its host (every interface when empty or 0.0.0.0).")
                .define(ADVERTISED_LISTENERS, LIST, null, HIGH,
                        "The addresses registered for clients, NAME://host:port, when they differ from the bound ones.")
                .define(CONTROLLER_LISTENER_NAMES, LIST, "CONTROLLER", HIGH,
                        "The listener names of the control plane (gRPC, plaintext); the first is the one used.")
                .define(LISTENER_SECURITY_PROTOCOL_MAP, STRING, Listeners.DEFAULT_SECURITY_PROTOCOL_MAP, MEDIUM,
                        "Listener name to security protocol, NAME:PROTOCOL; PLAINTEXT and SSL are served. When unset,"
                                + " the controller listeners are PLAINTEXT.")
                .define(SOCKET_REQUEST_MAX_BYTES, INT, DEFAULT_SOCKET_REQUEST_MAX_BYTES, HIGH,
                        "The largest request a client may send; a larger length prefix closes the connection.")
                .define(NUM_NETWORK_THREADS, INT, DEFAULT_NUM_NETWORK_THREADS, HIGH,
                        "The threads that read requests and write responses.")
                .define(NUM_IO_THREADS, INT, DEFAULT_NUM_IO_THREADS, HIGH, "The threads that run request handlers.")
                .define(QUEUED_MAX_REQUESTS, INT, DEFAULT_QUEUED_MAX_REQUESTS, MEDIUM,
                        "Requests that may wait for a handler thread before reads pause.")
                .define(CONNECTIONS_MAX_IDLE_MS, LONG, DEFAULT_CONNECTIONS_MAX_IDLE_MS, MEDIUM,
                        "Connections idle this long are closed.")
                .define(SOCKET_SEND_BUFFER_BYTES, INT, DEFAULT_SOCKET_SEND_BUFFER_BYTES, MEDIUM,
                        "SO_SNDBUF of client connections; -1 leaves it to the operating system.")
                .define(SOCKET_RECEIVE_BUFFER_BYTES, INT, DEFAULT_SOCKET_RECEIVE_BUFFER_BYTES, MEDIUM,
                        "SO_RCVBUF of client connections; -1 leaves it to the operating system.");
        NetworkLimits.define(def);
        return def;
    }

    /**
     * The client-facing host and port this broker registers for {@code listenerName}: the matching entry of
     * advertised.listeners if there is one (port 0 there means the bound port), else the bound host, or this
     * machine's name when bound to every interface.
     */
    public static Map.Entry<String, Integer> advertisedAddress(Map<String, String> props, String listenerName,
                                                               String boundHost, int boundPort) {
        String advertised = props.get(ADVERTISED_LISTENERS);
        if (advertised != null) {
            for (String entry : advertised.split(",")) {
                String listener = entry.trim();
                int schemeEnd = listener.indexOf("://");
                int portStart = listener.lastIndexOf(':');
                if (schemeEnd <= 0 || portStart <= schemeEnd) {
                    throw new InvalidServerConfigException(ADVERTISED_LISTENERS + " entry '" + listener
                            + "' is not of the form NAME://host:port");
                }
                if (listener.substring(0, schemeEnd).equals(listenerName)) {
                    String host = listener.substring(schemeEnd + 3, portStart);
                    int port = parseInt(ADVERTISED_LISTENERS + " port", listener.substring(portStart + 1));
                    return Map.entry(host.isEmpty() ? localHostName() : host, port == 0 ? boundPort : port);
                }
            }
        }
        return Map.entry(boundHost.isEmpty() ? localHostName() : boundHost, boundPort);
    }

    private static String localHostName() {
        try {
            return java.net.InetAddress.getLocalHost().getCanonicalHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }

    /** Reads the settings from Kafka-named properties; absent ones take Kafka's defaults. The first listener is served. */
    public static SocketServerConfig fromProperties(Map<String, String> props) {
        String listeners = props.getOrDefault(LISTENERS, DEFAULT_LISTENERS).trim();
        String first = listeners.split(",")[0].trim();
        int schemeEnd = first.indexOf("://");
        int portStart = first.lastIndexOf(':');
        if (schemeEnd <= 0 || portStart <= schemeEnd) {
            throw new InvalidServerConfigException("Listener '" + first + "' is not of the form NAME://host:port");
        }
        String name = first.substring(0, schemeEnd);
        String host = first.substring(schemeEnd + 3, portStart);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = parseInt(LISTENERS + " port", first.substring(portStart + 1));
        return new SocketServerConfig(name, host, port,
                intProp(props, SOCKET_REQUEST_MAX_BYTES, DEFAULT_SOCKET_REQUEST_MAX_BYTES),
                intProp(props, NUM_NETWORK_THREADS, DEFAULT_NUM_NETWORK_THREADS),
                intProp(props, NUM_IO_THREADS, DEFAULT_NUM_IO_THREADS),
                intProp(props, QUEUED_MAX_REQUESTS, DEFAULT_QUEUED_MAX_REQUESTS),
                longProp(props, CONNECTIONS_MAX_IDLE_MS, DEFAULT_CONNECTIONS_MAX_IDLE_MS),
                intProp(props, SOCKET_SEND_BUFFER_BYTES, DEFAULT_SOCKET_SEND_BUFFER_BYTES),
                intProp(props, SOCKET_RECEIVE_BUFFER_BYTES, DEFAULT_SOCKET_RECEIVE_BUFFER_BYTES),
                NetworkLimits.fromProperties(props));
    }

    /** Kafka's defaults on the given listener. */
    public static SocketServerConfig defaults(String listenerName, String host, int port) {
        return new SocketServerConfig(listenerName, host, port, DEFAULT_SOCKET_REQUEST_MAX_BYTES,
                DEFAULT_NUM_NETWORK_THREADS, DEFAULT_NUM_IO_THREADS, DEFAULT_QUEUED_MAX_REQUESTS,
                DEFAULT_CONNECTIONS_MAX_IDLE_MS, DEFAULT_SOCKET_SEND_BUFFER_BYTES, DEFAULT_SOCKET_RECEIVE_BUFFER_BYTES,
                NetworkLimits.defaults());
    }

    public SocketServerConfig withRequestMaxBytes(int newRequestMaxBytes) {
        return new SocketServerConfig(listenerName, host, port, newRequestMaxBytes, networkThreads, ioThreads,
                queuedMaxRequests, connectionsMaxIdleMs, sendBufferBytes, receiveBufferBytes, limits);
    }

    public SocketServerConfig withConnectionsMaxIdleMs(long newConnectionsMaxIdleMs) {
        return new SocketServerConfig(listenerName, host, port, requestMaxBytes, networkThreads, ioThreads,
                queuedMaxRequests, newConnectionsMaxIdleMs, sendBufferBytes, receiveBufferBytes, limits);
    }

    public SocketServerConfig withIoThreads(int newIoThreads, int newQueuedMaxRequests) {
        return new SocketServerConfig(listenerName, host, port, requestMaxBytes, networkThreads, newIoThreads,
                newQueuedMaxRequests, connectionsMaxIdleMs, sendBufferBytes, receiveBufferBytes, limits);
    }

    public SocketServerConfig withLimits(NetworkLimits newLimits) {
        return new SocketServerConfig(listenerName, host, port, requestMaxBytes, networkThreads, ioThreads,
                queuedMaxRequests, connectionsMaxIdleMs, sendBufferBytes, receiveBufferBytes, newLimits);
    }

    private static int intProp(Map<String, String> props, String name, int defaultValue) {
        String value = props.get(name);
        return value == null ? defaultValue : parseInt(name, value.trim());
    }

    private static long longProp(Map<String, String> props, String name, long defaultValue) {
        String value = props.get(name);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new InvalidServerConfigException(name + " must be a number, got '" + value + "'");
        }
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new InvalidServerConfigException(name + " must be an integer, got '" + value + "'");
        }
    }

    private static void requireRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidServerConfigException(name + " must be in [" + min + ", " + max + "], got " + value);
        }
    }
}
