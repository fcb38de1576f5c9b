package io.kraft.server.fuzz;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Watches the log (slf4j-simple writes to the current System.err) for lines that mean hostile input reached a
 * place it should not: a handler that failed (answered UNKNOWN_SERVER_ERROR or closed the connection), or a
 * response that could not be built. Input may be refused; it may never break a handler.
 */
final class ServerErrorCounter implements AutoCloseable {
    private static final List<String> MARKERS = List.of("handler failed", "could not be built", "could not be written",
            "UNKNOWN_SERVER_ERROR");
    private final PrintStream original = System.err;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    ServerErrorCounter() {
        System.setErr(new PrintStream(new OutputStream() {
            private final StringBuilder line = new StringBuilder();

            @Override
            public synchronized void write(int b) {
                original.write(b);
                if (b == '\n') {
                    String text = line.toString();
                    line.setLength(0);
                    for (String marker : MARKERS) {
                        if (text.contains(marker) && lines.size() < 100) {
                            lines.add(text);
                            break;
                        }
                    }
                } else if (line.length() < 2_000) {
                    line.append((char) b);
                }
            }
        }, true, StandardCharsets.UTF_8));
    }

    /** The first lines (up to 100) that name a handler failure. */
    List<String> failures() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
