package io.kraft.systest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Hands out loopback ports that were free a moment ago: bind port 0, note the port, release it. Another
 * process may grab one before the node binds it; the kernel's ephemeral range makes that rare, and no
 * port is handed out twice by one JVM.
 */
public final class FreePorts {
    private static final Set<Integer> handedOut = new HashSet<>();

    private FreePorts() {
    }

    /** A loopback TCP port that was free when this returned. */
    public static synchronized int next() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = bindAndRelease();
            if (handedOut.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no fresh free loopback port after 100 attempts");
    }

    private static int bindAndRelease() {
        try (ServerSocket socket = new ServerSocket()) {
            // Without SO_REUSEADDR the port may sit in TIME_WAIT after close; the node would then fail to bind.
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind a loopback port", e);
        }
    }
}
