package io.kraft.broker.network;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts a listener's open connections, in total and per client address, against {@code max.connections},
 * {@code max.connections.per.ip} and its overrides. Override host names are resolved once, when the listener
 * starts, as Kafka does. Thread-safe: the acceptor takes slots, whichever thread closes a connection frees it.
 */
final class ConnectionQuotas {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionQuotas.class);

    private final int maxConnections;
    private final int maxConnectionsPerIp;
    private final Map<InetAddress, Integer> overrides;
    private final AtomicInteger open = new AtomicInteger();
    private final Map<InetAddress, AtomicInteger> openPerAddress = new ConcurrentHashMap<>();

    ConnectionQuotas(NetworkLimits limits) {
        this.maxConnections = limits.maxConnections();
        this.maxConnectionsPerIp = limits.maxConnectionsPerIp();
        Map<InetAddress, Integer> resolved = new HashMap<>();
        limits.maxConnectionsPerIpOverrides().forEach((host, limit) -> {
            try {
                resolved.put(InetAddress.getByName(host), limit);
            } catch (UnknownHostException e) {
                LOG.warn("Ignoring {} entry for {}: the host does not resolve", NetworkLimits.MAX_CONNECTIONS_PER_IP_OVERRIDES,
                        host);
            }
        });
        this.overrides = Map.copyOf(resolved);
    }

    /** The outcome of asking for a connection slot. */
    enum Admission { ADMITTED, LISTENER_FULL, ADDRESS_FULL }

    /** Takes a slot for a new connection from {@code address}; a refused connection holds none. */
    Admission tryAcquire(InetAddress address) {
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            return Admission.LISTENER_FULL;
        }
        int limit = overrides.getOrDefault(address, maxConnectionsPerIp);
        AtomicInteger count = openPerAddress.computeIfAbsent(address, a -> new AtomicInteger());
        if (count.incrementAndGet() > limit) {
            release(address);
            open.decrementAndGet();
            return Admission.ADDRESS_FULL;
        }
        return Admission.ADMITTED;
    }

    /** Frees the slot of a connection from {@code address} that was admitted and has closed. */
    void release(InetAddress address, boolean admitted) {
        if (admitted) {
            release(address);
            open.decrementAndGet();
        }
    }

    private void release(InetAddress address) {
        openPerAddress.computeIfPresent(address, (a, count) -> count.decrementAndGet() <= 0 ? null : count);
    }

    int open() {
        return open.get();
    }

    int open(InetAddress address) {
        AtomicInteger count = openPerAddress.get(address);
        return count == null ? 0 : count.get();
    }
}
