package io.kraft.systest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A test-only program for proving the harness's signals: a loopback TCP server that echoes each line
 * back, prints {@code listening on PORT} once bound, and prints {@code shutdown hook ran} on a clean
 * stop. Argument: the port (0 for any).
 */
public final class EchoServer {
    public static final String SHUTDOWN_LINE = "shutdown hook ran";

    private EchoServer() {
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println(SHUTDOWN_LINE);
            System.out.flush();
        }));
        System.out.println("listening on " + server.getLocalPort());
        System.out.flush();
        while (true) {
            Socket client = server.accept();
            Thread handler = new Thread(() -> echo(client), "echo-" + client.getPort());
            handler.setDaemon(true);
            handler.start();
        }
    }

    private static void echo(Socket client) {
        try (client;
             BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(client.getOutputStream(), true, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.println(line);
            }
        } catch (IOException closed) {
            // the client went away; nothing to do
        }
    }
}
