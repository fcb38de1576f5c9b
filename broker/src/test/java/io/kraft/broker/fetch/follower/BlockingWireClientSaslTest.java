package io.kraft.broker.fetch.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.api.auth.SaslAuthenticateHandler;
import io.kraft.broker.api.auth.SaslHandshakeHandler;
import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.InterBrokerSecurity;
import io.kraft.broker.network.KafkaServer;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandlerRegistry;
import io.kraft.broker.network.SaslSettings;
import io.kraft.broker.network.ScramCredentials;
import io.kraft.broker.network.SharedNetworkResources;
import io.kraft.broker.network.SocketServerConfig;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ApiVersionsRequest;
import io.kraft.broker.protocol.message.ApiVersionsResponse;
import io.kraft.broker.protocol.message.SaslHandshakeRequest;
import io.kraft.broker.protocol.message.SaslHandshakeResponse;
import io.kraft.broker.security.SaslClientLogin;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A follower's connection logs in on a SASL listener and renews its session on the same socket before it ends. */
class BlockingWireClientSaslTest {
    private final AtomicInteger handshakes = new AtomicInteger();
    private KafkaServer server;
    private SharedNetworkResources shared;
    private KafkaMetrics metrics;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            shared.close();
            metrics.close();
        }
    }

    private InetSocketAddress start(long reauthMs) throws InterruptedException {
        SaslHandshakeHandler handshake = new SaslHandshakeHandler();
        AsyncRequestHandler<SaslHandshakeRequest, SaslHandshakeResponse> counting = new AsyncRequestHandler<>() {
            @Override
            public ApiKey apiKey() {
                return ApiKey.SASL_HANDSHAKE;
            }

            @Override
            public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                             ApiRequest<SaslHandshakeRequest> request) {
                handshakes.incrementAndGet();
                return handshake.handle(context, request);
            }
        };
        SocketServerConfig config = SocketServerConfig.defaults("SASL_PLAINTEXT", "127.0.0.1", 0);
        SaslSettings sasl = new SaslSettings("SASL_PLAINTEXT", List.of("PLAIN"), Map.of("broker", "broker-secret"),
                reauthMs);
        metrics = KafkaMetrics.withoutJmx();
        shared = new SharedNetworkResources(config);
        server = new KafkaServer(config, RequestHandlerRegistry.of(new ApiVersionsHandler(), counting,
                new SaslAuthenticateHandler()), metrics, null, sasl, ScramCredentials.NONE, shared);
        server.start();
        return new InetSocketAddress("127.0.0.1", server.boundPort());
    }

    private static InterBrokerSecurity login(String password) {
        return new InterBrokerSecurity(Optional.empty(), Optional.of(new SaslClientLogin("PLAIN", "broker", password)));
    }

    @Test
    void renewsItsSessionOnTheSameConnection() throws Exception {
        InetSocketAddress address = start(400);
        try (BlockingWireClient client = BlockingWireClient.connect(address, login("broker-secret"), 5_000, "follower",
                1 << 20)) {
            long until = System.currentTimeMillis() + 1_500;
            int calls = 0;
            while (System.currentTimeMillis() < until) {
                ApiVersionsResponse response = client.send(new ApiVersionsRequest(), (short) 3);
                assertEquals(0, response.errorCode());
                calls++;
                Thread.sleep(50);
            }
            assertFalse(client.isClosed(), "the leader never closed the connection");
            assertTrue(calls > 10, calls + " calls");
            assertTrue(handshakes.get() >= 3, handshakes.get() + " logins on one connection in 1.5 s of 0.4 s sessions");
        }
    }

    @Test
    void readsEveryAnswerIntoOneBuffer() throws Exception {
        InetSocketAddress address = start(0);
        try (BlockingWireClient client = BlockingWireClient.connect(address, login("broker-secret"), 5_000, "follower",
                1 << 20)) {
            for (int i = 0; i < 5; i++) {
                ApiVersionsResponse response = client.send(new ApiVersionsRequest(), (short) 3);
                assertEquals(0, response.errorCode());
                assertEquals(3, response.apiKeys().size(), response.toString());
            }
            assertEquals(1, client.responseBufferAllocations(), "the login's and five answers' buffers");
        }
    }

    @Test
    void aRefusedLoginIsAnIOExceptionSayingWhy() throws Exception {
        InetSocketAddress address = start(0);
        IOException e = assertThrows(IOException.class, () -> BlockingWireClient.connect(address, login("wrong"),
                5_000, "follower", 1 << 20));
        assertTrue(e.getMessage().contains("SASL PLAIN login as broker to") && e.getMessage().endsWith(
                "failed: Authentication failed: Invalid username or password"), e.getMessage());
    }
}
