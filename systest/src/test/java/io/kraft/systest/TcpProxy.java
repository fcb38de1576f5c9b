package io.kraft.systest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP relay from its own port to one target, which a test can cut and heal. {@link #cut} closes every
 * relayed connection and, until {@link #heal}, accepts new ones but forwards nothing (a black hole, so the peer sees
 * timeouts as in a real network partition rather than a refused connection). The target may come and go: each
 * accepted connection dials it afresh.
 */
public final class TcpProxy implements AutoCloseable {
    private static final int BUFFER_BYTES = 64 * 1024;
    private static final int CONNECT_TIMEOUT_MS = 2_000;

    private final String name;
    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Thread acceptor;
    /** Open sockets of this proxy, both sides of relayed connections and the black-holed ones. */
    private final List<Socket> open = new ArrayList<>();
    private final java.util.concurrent.atomic.AtomicLong relayedBytes = new java.util.concurrent.atomic.AtomicLong();
    private boolean cut;
    private boolean closed;

    private TcpProxy(String name, InetSocketAddress target) throws IOException {
        this.name = name;
        this.target = target;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.acceptor = new Thread(this::acceptLoop, "proxy-" + name);
        acceptor.setDaemon(true);
    }

    /** A started proxy on a fresh loopback port, relaying to {@code 127.0.0.1:targetPort}. */
    public static TcpProxy start(String name, int targetPort) {
        try {
            TcpProxy proxy = new TcpProxy(name, new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
            proxy.acceptor.start();
            return proxy;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot start proxy " + name, e);
        }
    }

    public String name() {
        return name;
    }

    /** The port peers connect to instead of the target's. */
    public int port() {
        return server.getLocalPort();
    }

    /** Drops every connection through this proxy and black-holes new ones until {@link #heal}. */
    public synchronized void cut() {
        cut = true;
        closeOpen();
    }

    /** Closes the black-holed connections (their bytes are gone, as after a reset) and relays new ones again. */
    public synchronized void heal() {
        if (cut) {
            cut = false;
            closeOpen();
        }
    }

    /** Bytes relayed so far, both ways: proof that the peers really talk through this proxy. */
    public long relayedBytes() {
        return relayedBytes.get();
    }

    public synchronized boolean isCut() {
        return cut;
    }

    @Override
    public synchronized void close() {
        closed = true;
        closeQuietly(server);
        closeOpen();
    }

    private void acceptLoop() {
        while (true) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            boolean relay;
            synchronized (this) {
                if (closed) {
                    closeQuietly(client);
                    return;
                }
                open.add(client);
                relay = !cut;
            }
            if (relay) {
                Thread connector = new Thread(() -> connect(client), "proxy-" + name + "-connect");
                connector.setDaemon(true);
                connector.start();
            }
        }
    }

    private void connect(Socket client) {
        Socket upstream = new Socket();
        try {
            upstream.connect(target, CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            // The target is down: the peer sees its connection close, as it would without the proxy.
            closeQuietly(upstream);
            forget(client);
            return;
        }
        synchronized (this) {
            if (cut || closed || !open.contains(client)) {
                closeQuietly(upstream);
                forget(client);
                return;
            }
            open.add(upstream);
        }
        pump(client, upstream, "up");
        pump(upstream, client, "down");
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[BUFFER_BYTES];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                    relayedBytes.addAndGet(read);
                }
            } catch (IOException e) {
                // either side closed, or the proxy was cut
            }
            forget(from);
            forget(to);
        }, "proxy-" + name + "-" + direction);
        pump.setDaemon(true);
        pump.start();
    }

    private synchronized void forget(Socket socket) {
        open.remove(socket);
        closeQuietly(socket);
    }

    private void closeOpen() {
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public String toString() {
        return "proxy " + name + " :" + port() + " -> " + target.getPort() + (isCut() ? " (cut)" : "");
    }
}
