package io.kraft.broker.network;

import java.util.Map;

/**
 * The wire server's settings under Kafka's names: the listener to bind and the limits that keep one
 * client from exhausting the broker (request size, handler queue, idle connections).
 *
 * @param listenerName name of the listener (e.g. PLAINTEXT), matched against brokers' registered endpoints
 * @param host host to bind; empty binds every interface
 * @param port port to bind; 0 picks an ephemeral port
 */
public record SocketServerConfig(String listenerName, String host, int port, int requestMaxBytes, int networkThreads,
                                 int ioThreads, int queuedMaxRequests, long connectionsMaxIdleMs) {
    public static final String LISTENERS = "listeners";
    public static final String SOCKET_REQUEST_MAX_BYTES = "socket.request.max.bytes";
    public static final String NUM_NETWORK_THREADS = "num.network.threads";
    public static final String NUM_IO_THREADS = "num.io.threads";
    public static final String QUEUED_MAX_REQUESTS = "queued.max.requests";
    public static final String CONNECTIONS_MAX_IDLE_MS = "connections.max.idle.ms";

    public static final String DEFAULT_LISTENERS = "PLAINTEXT://:9092";
    public static final int DEFAULT_SOCKET_REQUEST_MAX_BYTES = 104_857_600;
    public static final int DEFAULT_NUM_NETWORK_THREADS = 3;
    public static final int DEFAULT_NUM_IO_THREADS = 8;
    public static final int DEFAULT_QUEUED_MAX_REQUESTS = 500;
    public static final long DEFAULT_CONNECTIONS_MAX_IDLE_MS = 600_000L;

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
                longProp(props, CONNECTIONS_MAX_IDLE_MS, DEFAULT_CONNECTIONS_MAX_IDLE_MS));
    }

    /** Kafka's defaults on the given listener. */
    public static SocketServerConfig defaults(String listenerName, String host, int port) {
        return new SocketServerConfig(listenerName, host, port, DEFAULT_SOCKET_REQUEST_MAX_BYTES,
                DEFAULT_NUM_NETWORK_THREADS, DEFAULT_NUM_IO_THREADS, DEFAULT_QUEUED_MAX_REQUESTS,
                DEFAULT_CONNECTIONS_MAX_IDLE_MS);
    }

    public SocketServerConfig withRequestMaxBytes(int newRequestMaxBytes) {
        return new SocketServerConfig(listenerName, host, port, newRequestMaxBytes, networkThreads, ioThreads,
                queuedMaxRequests, connectionsMaxIdleMs);
    }

    public SocketServerConfig withConnectionsMaxIdleMs(long newConnectionsMaxIdleMs) {
        return new SocketServerConfig(listenerName, host, port, requestMaxBytes, networkThreads, ioThreads,
                queuedMaxRequests, newConnectionsMaxIdleMs);
    }

    public SocketServerConfig withIoThreads(int newIoThreads, int newQueuedMaxRequests) {
        return new SocketServerConfig(listenerName, host, port, requestMaxBytes, networkThreads, newIoThreads,
                newQueuedMaxRequests, connectionsMaxIdleMs);
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
