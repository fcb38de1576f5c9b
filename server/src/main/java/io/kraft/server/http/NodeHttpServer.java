package io.kraft.server.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kraft.broker.metrics.KafkaMetrics;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's HTTP endpoint: {@code GET /metrics} (its metrics and the JVM's in Prometheus' text format),
 * {@code /health/live} (200 while the process serves HTTP at all) and {@code /health/ready} (200 once the node serves
 * clients, 503 before), for Prometheus and orchestrators without an agent. One thread; bodies are small.
 */
public final class NodeHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeHttpServer.class);

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<KafkaMetrics> metrics;
    private final PrometheusRegistry jvm = new PrometheusRegistry();
    private final BooleanSupplier ready;

    private NodeHttpServer(HttpServer server, ExecutorService executor, List<KafkaMetrics> metrics,
                           BooleanSupplier ready) {
        this.server = server;
        this.executor = executor;
        this.metrics = metrics;
        this.ready = ready;
        JvmMetrics.builder().register(jvm);
    }

    /**
     * Binds and serves {@code config}'s address.
     *
     * @throws UncheckedIOException naming the address when it cannot be bound
     */
    public static NodeHttpServer start(int nodeId, HttpListenerConfig config, List<KafkaMetrics> metrics,
                                       BooleanSupplier ready) {
        InetSocketAddress address = config.host().map(h -> new InetSocketAddress(h, config.port()))
                .orElseGet(() -> new InetSocketAddress(config.port()));
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind " + HttpListenerConfig.HTTP_LISTENER + " " + address + ": "
                    + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kraft-http-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
        NodeHttpServer node = new NodeHttpServer(server, executor, List.copyOf(metrics), ready);
        server.setExecutor(executor);
        server.createContext("/metrics", node::metrics);
        server.createContext("/health/live", exchange -> node.answer(exchange, 200, "live\n"));
        server.createContext("/health/ready", exchange -> {
            boolean isReady = node.ready.getAsBoolean();
            node.answer(exchange, isReady ? 200 : 503, isReady ? "ready\n" : "not ready\n");
        });
        server.start();
        LOG.info("Node {} serves metrics and health checks on http://{}:{}/", nodeId,
                address.getHostString(), server.getAddress().getPort());
        return node;
    }

    /** The bound port (the ephemeral one when the configured port is 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    private void metrics(HttpExchange exchange) throws IOException {
        if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
            answer(exchange, 405, "GET only\n");
            return;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
        try {
            for (KafkaMetrics node : metrics) {
                node.writePrometheus(body);
            }
            PrometheusTextFormatWriter.create().write(body, jvm.scrape());
        } catch (RuntimeException e) {
            LOG.warn("Metrics scrape failed: {}", e.toString());
            answer(exchange, 500, "metrics failed: " + e + "\n");
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", KafkaMetrics.prometheusContentType());
        send(exchange, 200, body.toByteArray());
    }

    private void answer(HttpExchange exchange, int status, String text) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        send(exchange, status, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (!head) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
