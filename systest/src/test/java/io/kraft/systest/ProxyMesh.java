package io.kraft.systest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One {@link TcpProxy} per directed pair of nodes (the link a node dials to reach another), so that a test can
 * partition the network: cut the links of one node, or every link between two groups of nodes, and heal them all.
 */
public final class ProxyMesh implements AutoCloseable {
    /** A directed link: {@code from} dials {@code to}. */
    public record Link(int from, int to) implements Comparable<Link> {
        @Override
        public int compareTo(Link other) {
            return from != other.from ? Integer.compare(from, other.from) : Integer.compare(to, other.to);
        }

        @Override
        public String toString() {
            return from + "->" + to;
        }
    }

    private final Map<Link, TcpProxy> proxies = new TreeMap<>();

    /** Starts the proxy {@code from -> to} in front of {@code targetPort} and answers the port {@code from} dials. */
    public synchronized int add(int from, int to, int targetPort) {
        Link link = new Link(from, to);
        if (proxies.containsKey(link)) {
            throw new IllegalArgumentException("link " + link + " has a proxy already");
        }
        TcpProxy proxy = TcpProxy.start(link.toString(), targetPort);
        proxies.put(link, proxy);
        return proxy.port();
    }

    /** Cuts every link from or to {@code node}; answers the links cut. */
    public synchronized List<Link> isolate(int node) {
        return cut(proxies.keySet().stream().filter(link -> link.from == node || link.to == node).toList());
    }

    /** Cuts every link between a node of {@code side} and a node of {@code others}, both ways. */
    public synchronized List<Link> separate(Collection<Integer> side, Collection<Integer> others) {
        Set<Integer> a = Set.copyOf(side);
        Set<Integer> b = Set.copyOf(others);
        return cut(proxies.keySet().stream().filter(link -> a.contains(link.from) && b.contains(link.to)
                || b.contains(link.from) && a.contains(link.to)).toList());
    }

    /** Heals every cut link; answers how many were cut. */
    public synchronized int healAll() {
        int healed = 0;
        for (TcpProxy proxy : proxies.values()) {
            if (proxy.isCut()) {
                proxy.heal();
                healed++;
            }
        }
        return healed;
    }

    /** Bytes relayed over the link so far, both ways. */
    public synchronized long relayedBytes(int from, int to) {
        TcpProxy proxy = proxies.get(new Link(from, to));
        if (proxy == null) {
            throw new IllegalArgumentException("no link " + from + "->" + to);
        }
        return proxy.relayedBytes();
    }

    private List<Link> cut(List<Link> links) {
        List<Link> cut = new ArrayList<>();
        for (Link link : links) {
            proxies.get(link).cut();
            cut.add(link);
        }
        return cut;
    }

    @Override
    public synchronized void close() {
        proxies.values().forEach(TcpProxy::close);
        proxies.clear();
    }
}
