package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fault-injection proxy in front of an echo server: relays, cuts (drop and black-hole) and heals. */
class TcpProxyTest {
    private int echoPort;
    private TcpProxy proxy;

    @BeforeEach
    void startEchoServer() {
        echoPort = FreePorts.next();
        Thread server = new Thread(() -> {
            try {
                EchoServer.main(new String[] {Integer.toString(echoPort)});
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "echo-server");
        server.setDaemon(true);
        server.start();
        Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            new Socket("127.0.0.1", echoPort).close();
            return true;
        });
        proxy = TcpProxy.start("test", echoPort);
    }

    @AfterEach
    void closeProxy() {
        proxy.close();
    }

    @Test
    void relaysBothWays() throws IOException {
        try (Line line = new Line(proxy.port())) {
            assertEquals("hello", line.roundTrip("hello"));
            assertEquals("again", line.roundTrip("again"));
        }
        // Counted just after each write, so the last count may trail the echo by a moment.
        long expected = 2 * ("hello\n".length() + "again\n".length());
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> proxy.relayedBytes() == expected);
    }

    @Test
    void cutDropsOpenConnectionsAndBlackHolesNewOnes() throws IOException {
        try (Line before = new Line(proxy.port())) {
            assertEquals("before", before.roundTrip("before"));
            proxy.cut();
            assertTrue(proxy.isCut());
            // The open connection is closed: the echo never comes, the stream ends or resets.
            assertThrows(IOException.class, () -> {
                String answer = before.roundTrip("lost");
                if (answer == null) {
                    throw new IOException("stream ended");
                }
            });
        }
        try (Line during = new Line(proxy.port())) {
            // Accepted (no refusal), but nothing comes back: a partition, not a crash.
            assertThrows(SocketTimeoutException.class, () -> during.roundTrip("into the void"));
        }
    }

    @Test
    void healRelaysNewConnectionsAgain() throws IOException {
        proxy.cut();
        Line blackHoled = new Line(proxy.port());
        assertThrows(SocketTimeoutException.class, () -> blackHoled.roundTrip("into the void"));
        proxy.heal();
        assertThrows(IOException.class, () -> {
            if (blackHoled.roundTrip("stale") == null) {
                throw new IOException("stream ended");
            }
        }, "a connection accepted while cut is closed by the heal");
        blackHoled.close();
        try (Line after = new Line(proxy.port())) {
            assertEquals("after", after.roundTrip("after"));
        }
    }

    /** A line-based client with a short read timeout. */
    private static final class Line implements AutoCloseable {
        private final Socket socket = new Socket();
        private final BufferedReader in;
        private final PrintWriter out;

        Line(int port) throws IOException {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(1_000);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
        }

        String roundTrip(String text) throws IOException {
            out.println(text);
            if (out.checkError()) {
                throw new IOException("write failed");
            }
            return in.readLine();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
