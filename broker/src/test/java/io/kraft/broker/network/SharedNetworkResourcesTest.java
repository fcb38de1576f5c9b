package io.kraft.broker.network;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.metrics.KafkaMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A broker's listeners share their limits: max.connections counts the connections of every listener. */
class SharedNetworkResourcesTest {
    @Test
    void maxConnectionsCountsEveryListenersConnections() throws Exception {
        SocketServerConfig first = SocketServerConfig.fromProperties(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "max.connections", "1"));
        SocketServerConfig second = SocketServerConfig.fromProperties(Map.of("listeners", "OTHER://127.0.0.1:0",
                "max.connections", "1"));
        RequestHandlerRegistry registry = RequestHandlerRegistry.of(new ApiVersionsHandler());
        try (KafkaMetrics metrics = KafkaMetrics.withoutJmx();
             SharedNetworkResources shared = new SharedNetworkResources(first);
             KafkaServer a = new KafkaServer(first, registry, metrics, null, shared);
             KafkaServer b = new KafkaServer(second, registry, metrics, null, shared)) {
            a.start();
            b.start();
            try (Socket admitted = new Socket("127.0.0.1", a.boundPort())) {
                await().atMost(Duration.ofSeconds(10)).until(() -> a.openConnections() == 1);
                try (Socket refused = new Socket("127.0.0.1", b.boundPort())) {
                    refused.setSoTimeout(10_000);
                    assertClosed(refused.getInputStream());
                }
                assertTrue(admitted.isConnected());
                assertEquals(1, b.openConnections(), "the count is the listeners' together");
            }
        }
    }

    private static void assertClosed(InputStream in) throws IOException {
        try {
            assertEquals(-1, in.read());
        } catch (IOException reset) {
            // a reset is a close too
        }
    }
}
