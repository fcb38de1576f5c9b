package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.api.auth.SaslAuthenticateHandler;
import io.kraft.broker.api.auth.SaslHandshakeHandler;
import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.metrics.KafkaMetrics;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A broker-to-broker connection logs in on a SASL listener and renews its session on the same socket before it ends
 * (by a test clock: no waiting).
 */
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
        // sessions of a minute on the leader's side, which this test never waits out: the client's clock decides
        InetSocketAddress address = start(60_000);
        AtomicLong nanos = new AtomicLong();
        try (BlockingWireClient client = BlockingWireClient.connect(address, login("broker-secret"), 5_000, "follower",
                1 << 20, nanos::get)) {
            assertEquals(1, handshakes.get(), "the login after connecting");
            for (long atMs : new long[] {0, 50_999, 51_000, 60_000, 101_999, 102_000}) {
                nanos.set(TimeUnit.MILLISECONDS.toNanos(atMs));
                ApiVersionsResponse response = client.send(new ApiVersionsRequest(), (short) 3);
                assertEquals(0, response.errorCode());
            }
            // renewed at 85% of each 60 s session: at 51 s, then 51 s after that renewal
            assertEquals(3, handshakes.get(), "logins on one connection");
            assertFalse(client.isClosed(), "the leader never closed the connection");
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
