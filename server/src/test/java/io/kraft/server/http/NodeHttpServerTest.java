package io.kraft.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import io.kraft.config.ConfigException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The HTTP endpoint's answers, and how {@code http.listener} is read. */
class NodeHttpServerTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void readinessFollowsTheNodeAndMetricsAreServed() throws Exception {
        AtomicBoolean ready = new AtomicBoolean();
        try (KafkaMetrics metrics = KafkaMetrics.withoutJmx();
             NodeHttpServer server = NodeHttpServer.start(1, new HttpListenerConfig(Optional.of("localhost"), 0),
                     List.of(metrics), ready::get)) {
            metrics.meter(MetricName.of("kafka.server", "BrokerTopicMetrics", "MessagesInPerSec"), "messages", "in")
                    .mark(7);
            assertEquals(200, get(server, "/health/live").statusCode());
            assertEquals(503, get(server, "/health/ready").statusCode());
            ready.set(true);
            assertEquals(200, get(server, "/health/ready").statusCode());
            HttpResponse<String> scrape = get(server, "/metrics");
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
            assertTrue(scrape.body().contains("kafka_server_brokertopicmetrics_messagesin_total 7.0"), scrape.body());
            assertTrue(scrape.body().contains("jvm_threads_current"), "JVM metrics");
        }
    }

    @Test
    void listenerIsHostPortOrEmpty() {
        assertEquals(Optional.empty(), HttpListenerConfig.fromProperties(Map.of()));
        assertEquals(Optional.empty(), HttpListenerConfig.fromProperties(Map.of("http.listener", "")));
        assertEquals(Optional.of(new HttpListenerConfig(Optional.of("localhost"), 9644)),
                HttpListenerConfig.fromProperties(Map.of("http.listener", "localhost:9644")));
        assertEquals(Optional.of(new HttpListenerConfig(Optional.empty(), 9644)),
                HttpListenerConfig.fromProperties(Map.of("http.listener", ":9644")));
        ConfigException bad = assertThrows(ConfigException.class,
                () -> HttpListenerConfig.fromProperties(Map.of("http.listener", "localhost")));
        assertTrue(bad.getMessage().contains("http.listener"), bad.getMessage());
        assertThrows(ConfigException.class,
                () -> HttpListenerConfig.fromProperties(Map.of("http.listener", "localhost:70000")));
    }

    private static HttpResponse<String> get(NodeHttpServer server, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
