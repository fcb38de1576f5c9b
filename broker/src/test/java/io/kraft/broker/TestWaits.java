package io.kraft.broker;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/** What the broker's in-process cluster tests share: waiting for a condition with a bound, and a free port. */
public final class TestWaits {
    /** How long a test waits for a cluster to reach a state before it fails. */
    public static final long WAIT_MS = 30_000;
    private static final int LOW_PORT = 20_000;
    private static final int HIGH_PORT = 32_000;
    /** No port is handed out twice in one JVM. */
    private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

    private TestWaits() {
    }

    /** Waits until {@code condition} holds; fails naming {@code what} after {@link #WAIT_MS}. */
    public static void awaitTrue(BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(Duration.ofMillis(WAIT_MS)).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }

    /** A port free at the time of the call, for a listener that must be named before it binds. */
    public static int freePort() throws IOException {
        // Below Linux's ephemeral range (32768-60999): a port the kernel may give an outgoing connection (even a
        // test's own connect loop, which on loopback can connect to itself) cannot be taken before the node binds.
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = random.nextInt(LOW_PORT, HIGH_PORT);
            if (!handedOut.add(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(port));
                return port;
            } catch (IOException taken) {
                // in use: try another
            }
        }
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
