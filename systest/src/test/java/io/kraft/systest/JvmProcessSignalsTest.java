package io.kraft.systest;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Stop, kill -9, pause and resume, proven on a real JVM running {@link EchoServer}. */
class JvmProcessSignalsTest {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);
    /** How long a paused server gets to (not) answer; a running one answers in far less even on busy cores. */
    private static final int PAUSED_READ_TIMEOUT_MS = 1_000;
    private static final int ANSWER_TIMEOUT_MS = 30_000;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    private int startEchoServer(JvmProcess server) {
        return Integer.parseInt(server.waitForLogLine("listening on (\\d+)", START_TIMEOUT).group(1));
    }

    private static String echo(int port, String text, int readTimeoutMs) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), ANSWER_TIMEOUT_MS);
            socket.setSoTimeout(readTimeoutMs);
            new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8).println(text);
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8)).readLine();
        }
    }

    @Test
    void pauseStopsAnswersAndResumeBringsThemBack() throws Exception {
        JvmProcess server = processes.start(JvmSpec.testMain("echo", EchoServer.class));
        int port = startEchoServer(server);
        assertEquals("hello", echo(port, "hello", ANSWER_TIMEOUT_MS));

        server.pause();
        assertTrue(server.isPaused());
        // The kernel still accepts the connection into the backlog; only the answer never comes.
        assertThrows(SocketTimeoutException.class, () -> echo(port, "anyone?", PAUSED_READ_TIMEOUT_MS));
        assertTrue(server.isAlive(), "a paused process is alive");

        server.resume();
        assertFalse(server.isPaused());
        assertEquals("back", echo(port, "back", ANSWER_TIMEOUT_MS));
    }

    @Test
    void killClosesTheSocketsAtOnceWithoutShutdownHooks() throws Exception {
        JvmProcess server = processes.start(JvmSpec.testMain("echo", EchoServer.class));
        int port = startEchoServer(server);
        try (Socket open = new Socket(InetAddress.getLoopbackAddress(), port)) {
            open.setSoTimeout(ANSWER_TIMEOUT_MS);
            assertEquals(137, server.kill(EXIT_TIMEOUT), "128 + SIGKILL");
            assertFalse(server.isAlive());
            // The kernel closed the dead process's end: the open connection ends instead of hanging.
            int read;
            try {
                read = open.getInputStream().read();
            } catch (IOException reset) {
                read = -1;
            }
            assertEquals(-1, read);
        }
        assertThrows(ConnectException.class, () -> echo(port, "gone?", ANSWER_TIMEOUT_MS));
        assertFalse(server.stdout().contains(EchoServer.SHUTDOWN_LINE), server.stdout());
    }

    @Test
    void stopRunsTheShutdownHooks() {
        JvmProcess server = processes.start(JvmSpec.testMain("echo", EchoServer.class));
        startEchoServer(server);
        assertEquals(143, server.stop(EXIT_TIMEOUT), "128 + SIGTERM");
        assertTrue(server.stdout().contains(EchoServer.SHUTDOWN_LINE), server.describeLogs());
    }

    @Test
    void stopResumesAPausedProcessSoItsHooksRun() {
        JvmProcess server = processes.start(JvmSpec.testMain("echo", EchoServer.class));
        startEchoServer(server);
        server.pause();
        assertEquals(143, server.stop(EXIT_TIMEOUT));
        assertTrue(server.stdout().contains(EchoServer.SHUTDOWN_LINE), server.describeLogs());
    }

    @Test
    void closeEndsEveryProcessIncludingPausedOnes() throws Exception {
        ProcessRegistry registry = new ProcessRegistry(processes.logDir().resolve("own-registry"));
        JvmProcess running = registry.start(JvmSpec.testMain("running", EchoServer.class));
        JvmProcess paused = registry.start(JvmSpec.testMain("paused", EchoServer.class));
        startEchoServer(running);
        startEchoServer(paused);
        paused.pause();
        registry.close();
        assertFalse(running.isAlive());
        assertFalse(paused.isAlive());
        assertTrue(registry.processes().isEmpty());
        assertTrue(Files.size(running.stdoutLog()) > 0, "logs stay for inspection");
    }

    @Test
    void waitForLogLineFailsWithTheLogTailWhenTheProcessExitsFirst() {
        JvmProcess run = processes.start(JvmSpec.kraftCli("uuid", "random-uuid"));
        AssertionError failure = assertThrows(AssertionError.class,
                () -> run.waitForLogLine("never printed", START_TIMEOUT));
        assertTrue(failure.getMessage().contains("exited with 0 before logging a line matching /never printed/"),
                failure.getMessage());
        assertTrue(failure.getMessage().contains(run.stdout().strip()), "names what it did print");
    }

    @Test
    void waitForLogLineTimesOutOnASilentProcess() {
        JvmProcess server = processes.start(JvmSpec.testMain("echo", EchoServer.class));
        startEchoServer(server);
        AssertionError failure = assertThrows(AssertionError.class,
                () -> server.waitForLogLine("never printed", Duration.ofMillis(300)));
        assertTrue(failure.getMessage().contains("logged no line matching /never printed/ within PT0.3S"),
                failure.getMessage());
        await().atMost(Duration.ofSeconds(5)).until(server::isAlive);
    }

    @Test
    void namesAreUniquePerRegistry() {
        processes.start(JvmSpec.testMain("echo", EchoServer.class));
        assertThrows(IllegalArgumentException.class, () -> processes.start(JvmSpec.testMain("echo", EchoServer.class)));
        assertThrows(IllegalArgumentException.class, () -> JvmSpec.kraftCli("bad name"));
    }
}
