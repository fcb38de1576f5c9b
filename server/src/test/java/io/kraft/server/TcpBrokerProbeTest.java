package io.kraft.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.Endpoint;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The controller's TCP probe: only endpoints that all refuse connections report a broker gone. */
class TcpBrokerProbeTest {
    private final TcpBrokerProbe probe = new TcpBrokerProbe(5_000);

    private static Endpoint endpoint(int port) {
        return new Endpoint("PLAINTEXT", "127.0.0.1", port, "PLAINTEXT");
    }

    /** A loopback port nothing listens on: one the kernel just gave a socket that is closed again. */
    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void endpointsThatAllRefuseReportTheBrokerGoneAndOneListeningDoesNot() throws Exception {
        AtomicInteger refused = new AtomicInteger();
        CountDownLatch gone = new CountDownLatch(1);
        try (ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            probe.probe(1, List.of(endpoint(closedPort()), endpoint(listening.getLocalPort())), refused::incrementAndGet);
            probe.probe(2, List.of(endpoint(closedPort()), endpoint(closedPort())), gone::countDown);
            assertTrue(gone.await(30, TimeUnit.SECONDS), "broker 2's endpoints all refused");
        }
        // Probes run in order on one thread: broker 1's finished before broker 2's was reported.
        assertEquals(0, refused.get(), "broker 1 still listens on one endpoint");
    }
}
