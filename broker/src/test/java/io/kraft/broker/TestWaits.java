package io.kraft.broker;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/** What the broker's in-process cluster tests share: waiting for a condition with a bound, and a free port. */
public final class TestWaits {
    /** How long a test waits for a cluster to reach a state before it fails. */
    public static final long WAIT_MS = 30_000;

    private TestWaits() {
    }

    /** Waits until {@code condition} holds; fails naming {@code what} after {@link #WAIT_MS}. */
    public static void awaitTrue(BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(Duration.ofMillis(WAIT_MS)).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }

    /** A port free at the time of the call, for a listener that must be named before it binds. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
