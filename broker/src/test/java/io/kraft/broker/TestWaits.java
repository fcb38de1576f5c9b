package io.kraft.broker;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** What the broker's in-process cluster tests share: waiting for a condition with a bound, and a free port. */
public final class TestWaits {
    /** How long a test waits for a cluster to reach a state before it fails. */
    public static final long WAIT_MS = 30_000;

    private TestWaits() {
    }

    /** Polls {@code condition} until it holds; fails naming {@code what} after {@link #WAIT_MS}. */
    public static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + WAIT_MS + " ms waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** A port free at the time of the call, for a listener that must be named before it binds. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
