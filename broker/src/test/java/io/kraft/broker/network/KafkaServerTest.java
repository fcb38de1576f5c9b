package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.api.data.MetadataHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.metadata.image.MetadataImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The wire server against kafka-clients' own request serializers and response parsers over a raw socket. */
class KafkaServerTest {
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeResources() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    private KafkaServer start(SocketServerConfig config, ApiHandler... handlers) throws InterruptedException {
        KafkaServer server = new KafkaServer(config, RequestHandlerRegistry.of(handlers));
        resources.add(server);
        server.start();
        return server;
    }

    private KafkaServer startDefault() throws InterruptedException {
        return start(localConfig(), new ApiVersionsHandler(),
                new MetadataHandler(() -> TestImages.oneBrokerWithOrders(9092), TestImages.CLUSTER_ID));
    }

    private WireClient connect(KafkaServer server) throws IOException {
        WireClient client = new WireClient(server.boundPort());
        resources.add(client);
        return client;
    }

    private static SocketServerConfig localConfig() {
        return SocketServerConfig.defaults("PLAINTEXT", "127.0.0.1", 0);
    }

    private static RequestHeader apiVersionsHeader(short version, int correlationId) {
        return new RequestHeader(ApiKeys.API_VERSIONS, version, "wire-test", correlationId);
    }

    private static ApiVersionsResponse apiVersions(WireClient client, short version, int correlationId)
            throws IOException {
        RequestHeader header = apiVersionsHeader(version, correlationId);
        client.send(new ApiVersionsRequest.Builder().build(version), header);
        return (ApiVersionsResponse) AbstractResponse.parseResponse(client.receiveFrame(), header);
    }

    @Test
    void answersApiVersionsAtEveryVersionWithOnlyTheRegisteredApis() throws Exception {
        WireClient client = connect(startDefault());
        for (short version = 0; version <= 5; version++) {
            ApiVersionsResponse response = apiVersions(client, version, 100 + version);
            assertEquals(Errors.NONE.code(), response.data().errorCode(), "v" + version);
            assertEquals(2, response.data().apiKeys().size(), "v" + version + " advertises only what is served");
            ApiVersion metadata = response.data().apiKeys().find(ApiKeys.METADATA.id);
            assertEquals(0, metadata.minVersion());
            assertEquals(13, metadata.maxVersion());
            ApiVersion apiVersions = response.data().apiKeys().find(ApiKeys.API_VERSIONS.id);
            assertEquals(0, apiVersions.minVersion());
            assertEquals(5, apiVersions.maxVersion());
        }
    }

    @Test
    void aV5ClientThatReachedAnotherClusterIsToldToRebootstrap() throws Exception {
        KafkaServer server = start(localConfig(),
                new ApiVersionsHandler(List.of(), () -> MetadataImage.EMPTY, TestImages.CLUSTER_ID));
        WireClient client = connect(server);
        assertEquals(Errors.NONE, apiVersionsV5(client, null, -1, 1), "a bootstrap connection knows neither");
        assertEquals(Errors.NONE, apiVersionsV5(client, TestImages.CLUSTER_ID, 7, 2));
        assertEquals(Errors.NONE, apiVersionsV5(client, TestImages.CLUSTER_ID, Integer.MAX_VALUE - 7, 3),
                "a group coordinator's connection names a node id of the client's making");
        assertEquals(Errors.REBOOTSTRAP_REQUIRED, apiVersionsV5(client, "another-cluster-id", 7, 4));
        assertEquals(Errors.NONE, apiVersionsV5(client, TestImages.CLUSTER_ID, 7, 5), "the connection still serves");
    }

    private static Errors apiVersionsV5(WireClient client, String clusterId, int nodeId, int correlationId)
            throws IOException {
        RequestHeader header = apiVersionsHeader((short) 5, correlationId);
        ApiVersionsRequest.Builder builder = new ApiVersionsRequest.Builder((short) 5);
        builder.setClusterId(clusterId);
        builder.setNodeId(nodeId);
        client.send(builder.build((short) 5), header);
        return Errors.forCode(((ApiVersionsResponse) AbstractResponse.parseResponse(client.receiveFrame(), header))
                .data().errorCode());
    }

    @Test
    void answersAnUnknownApiVersionsVersionAtV0WithTheSupportedRanges() throws Exception {
        WireClient client = connect(startDefault());
        // A future ApiVersions v9 request: header v2 (client id, empty tagged fields), then an opaque body.
        byte[] clientId = "future-client".getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(4 + 8 + 2 + clientId.length + 1 + 3);
        frame.putInt(frame.capacity() - 4).putShort(ApiKeys.API_VERSIONS.id).putShort((short) 9).putInt(77)
                .putShort((short) clientId.length).put(clientId).put((byte) 0)
                .put(new byte[] {1, 2, 3}).flip();
        client.sendRaw(frame);
        ByteBuffer response = client.receiveFrame();
        assertEquals(77, response.getInt(), "response header v0 is only the correlation id");
        ApiVersionsResponse parsed = ApiVersionsResponse.parse(new ByteBufferAccessor(response), (short) 0);
        assertEquals(Errors.UNSUPPORTED_VERSION.code(), parsed.data().errorCode());
        assertEquals(5, parsed.data().apiKeys().find(ApiKeys.API_VERSIONS.id).maxVersion());
        // The client retries at a version both know, on the same connection.
        assertEquals(Errors.NONE.code(), apiVersions(client, (short) 5, 78).data().errorCode());
    }

    @Test
    void aPortInUseIsOneClearErrorAndLeavesNothingRunning() throws Exception {
        KafkaServer first = startDefault();
        KafkaServer second = new KafkaServer(SocketServerConfig.defaults("PLAINTEXT", "127.0.0.1", first.boundPort()),
                RequestHandlerRegistry.of(new ApiVersionsHandler()));
        UncheckedIOException refused = assertThrows(UncheckedIOException.class, second::start);
        assertTrue(refused.getMessage().startsWith("cannot bind listener PLAINTEXT on /127.0.0.1:" + first.boundPort()
                + ": "), refused.getMessage());
        second.close();
    }

    @Test
    void acceptsNoConnectionUntilToldTo() throws Exception {
        KafkaServer server = new KafkaServer(localConfig(), RequestHandlerRegistry.of(new ApiVersionsHandler()));
        resources.add(server);
        server.bind();
        WireClient client = connect(server);
        client.send(new ApiVersionsRequest.Builder().build((short) 3), apiVersionsHeader((short) 3, 1));
        assertFalse(server.isAccepting());
        assertEquals(0, server.openConnections());
        server.startAccepting();
        // The connection made while the server was not accepting waited in the backlog and is answered now.
        RequestHeader header = apiVersionsHeader((short) 3, 1);
        ApiVersionsResponse answer = (ApiVersionsResponse) AbstractResponse.parseResponse(client.receiveFrame(), header);
        assertEquals(0, answer.data().errorCode());
        assertTrue(server.isAccepting());
    }

    @Test
    void answersPipelinedRequestsInRequestOrderWhenTheFirstAnswerIsSlowest() throws Exception {
        int requests = 8;
        CountDownLatch laterOnesHandled = new CountDownLatch(requests - 1);
        AsyncRequestHandler<io.kraft.broker.protocol.message.ApiVersionsRequest,
                io.kraft.broker.protocol.message.ApiVersionsResponse> slowFirst = new AsyncRequestHandler<>() {
            private final ApiVersionsHandler delegate = new ApiVersionsHandler();

            @Override
            public ApiKey apiKey() {
                return ApiKey.API_VERSIONS;
            }

            @Override
            public CompletableFuture<HandlerResponse> handle(RequestContext context,
                    ApiRequest<io.kraft.broker.protocol.message.ApiVersionsRequest> request) {
                if (request.correlationId() == 0) {
                    // The first answer comes only after every later request was handled (like a long poll).
                    return CompletableFuture.supplyAsync(() -> {
                        awaitQuietly(laterOnesHandled);
                        return HandlerResponse.of(delegate.handle(context, request));
                    });
                }
                laterOnesHandled.countDown();
                return CompletableFuture.completedFuture(HandlerResponse.of(delegate.handle(context, request)));
            }
        };
        KafkaServer server = new KafkaServer(localConfig(), RequestHandlerRegistry.of(slowFirst));
        resources.add(server);
        server.start();
        WireClient client = connect(server);
        List<RequestHeader> headers = new ArrayList<>();
        for (int correlationId = 0; correlationId < requests; correlationId++) {
            RequestHeader header = apiVersionsHeader((short) 3, correlationId);
            headers.add(header);
            client.send(new ApiVersionsRequest.Builder().build((short) 3), header);
        }
        for (RequestHeader header : headers) {
            // parseResponse checks that the response's correlation id is this request's.
            AbstractResponse response = AbstractResponse.parseResponse(client.receiveFrame(), header);
            assertEquals(Errors.NONE.code(), ((ApiVersionsResponse) response).data().errorCode());
        }
        assertEquals(0, laterOnesHandled.getCount(), "the later requests were handled before the first was answered");
    }

    @Test
    void runsOneConnectionsRequestsOneAfterTheOther() throws Exception {
        int requests = 20;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        List<Integer> handledOrder = Collections.synchronizedList(new ArrayList<>());
        RequestHandler<io.kraft.broker.protocol.message.ApiVersionsRequest,
                io.kraft.broker.protocol.message.ApiVersionsResponse> recording = new RequestHandler<>() {
            private final ApiVersionsHandler delegate = new ApiVersionsHandler();

            @Override
            public ApiKey apiKey() {
                return ApiKey.API_VERSIONS;
            }

            @Override
            public io.kraft.broker.protocol.message.ApiVersionsResponse handle(RequestContext context,
                    ApiRequest<io.kraft.broker.protocol.message.ApiVersionsRequest> request) {
                maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                handledOrder.add(request.correlationId());
                Thread.yield();
                running.decrementAndGet();
                return delegate.handle(context, request);
            }
        };
        WireClient client = connect(start(localConfig().withIoThreads(4, 100), recording));
        List<RequestHeader> headers = new ArrayList<>();
        for (int correlationId = 0; correlationId < requests; correlationId++) {
            RequestHeader header = apiVersionsHeader((short) 3, correlationId);
            headers.add(header);
            client.send(new ApiVersionsRequest.Builder().build((short) 3), header);
        }
        for (RequestHeader header : headers) {
            AbstractResponse.parseResponse(client.receiveFrame(), header);
        }
        assertEquals(1, maxRunning.get(), "requests of one connection overlapped");
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            expected.add(i);
        }
        assertEquals(expected, handledOrder, "requests handled in the order sent");
    }

    @Test
    void pausesReadingWhenTheHandlerPoolIsFullAndLosesNoRequest() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        RequestHandler<io.kraft.broker.protocol.message.ApiVersionsRequest,
                io.kraft.broker.protocol.message.ApiVersionsResponse> gated = new RequestHandler<>() {
            private final ApiVersionsHandler delegate = new ApiVersionsHandler();

            @Override
            public ApiKey apiKey() {
                return ApiKey.API_VERSIONS;
            }

            @Override
            public io.kraft.broker.protocol.message.ApiVersionsResponse handle(RequestContext context,
                    ApiRequest<io.kraft.broker.protocol.message.ApiVersionsRequest> request) {
                awaitQuietly(release);
                return delegate.handle(context, request);
            }
        };
        WireClient client = connect(start(localConfig().withIoThreads(1, 2), gated));
        int requests = 30;
        List<RequestHeader> headers = new ArrayList<>();
        for (int correlationId = 0; correlationId < requests; correlationId++) {
            RequestHeader header = apiVersionsHeader((short) 4, correlationId);
            headers.add(header);
            client.send(new ApiVersionsRequest.Builder().build((short) 4), header);
        }
        release.countDown();
        for (RequestHeader header : headers) {
            ApiVersionsResponse response = (ApiVersionsResponse) AbstractResponse.parseResponse(client.receiveFrame(), header);
            assertEquals(Errors.NONE.code(), response.data().errorCode());
        }
    }

    @Test
    void closesOnlyTheConnectionThatSendsAnOversizedFrame() throws Exception {
        KafkaServer server = start(localConfig().withRequestMaxBytes(1024), new ApiVersionsHandler());
        WireClient oversized = connect(server);
        WireClient wellBehaved = connect(server);
        oversized.sendRaw(ByteBuffer.allocate(4).putInt(0, 1025));
        assertTrue(oversized.closedByServer());
        assertEquals(Errors.NONE.code(), apiVersions(wellBehaved, (short) 4, 1).data().errorCode());
        WireClient fresh = connect(server);
        assertEquals(Errors.NONE.code(), apiVersions(fresh, (short) 3, 2).data().errorCode());
    }

    @Test
    void closesTheConnectionOnANegativeFrameSize() throws Exception {
        WireClient client = connect(startDefault());
        client.sendRaw(ByteBuffer.allocate(4).putInt(0, -5));
        assertTrue(client.closedByServer());
    }

    @Test
    void closesTheConnectionOnGarbageBytes() throws Exception {
        WireClient client = connect(startDefault());
        byte[] garbage = "this is not a kafka request at all".getBytes(StandardCharsets.US_ASCII);
        client.sendRaw(ByteBuffer.allocate(4 + garbage.length).putInt(garbage.length).put(garbage).flip());
        assertTrue(client.closedByServer());
    }

    @Test
    void closesTheConnectionOnATruncatedRequestBody() throws Exception {
        WireClient client = connect(startDefault());
        // Metadata v12 header, then a compact array claiming 5 topics with nothing after it.
        ByteBuffer frame = ByteBuffer.allocate(4 + 8 + 2 + 1 + 1);
        frame.putInt(12).putShort(ApiKeys.METADATA.id).putShort((short) 12).putInt(5)
                .putShort((short) -1).put((byte) 0).put((byte) 6).flip();
        client.sendRaw(frame);
        assertTrue(client.closedByServer());
    }

    @Test
    void closesTheConnectionOnAnApiThatIsNotServed() throws Exception {
        WireClient client = connect(startDefault());
        // FindCoordinator (10) v0 for group "g": a known key, but no handler is registered for it.
        ByteBuffer frame = ByteBuffer.allocate(4 + 8 + 2 + 2 + 1);
        frame.putInt(13).putShort((short) 10).putShort((short) 0).putInt(9).putShort((short) -1)
                .putShort((short) 1).put((byte) 'g').flip();
        client.sendRaw(frame);
        assertTrue(client.closedByServer());
    }

    @Test
    void closesTheConnectionOnAnUnsupportedVersionOfAnotherApi() throws Exception {
        WireClient client = connect(startDefault());
        // Metadata v14 does not exist yet: header v2 and an empty flexible body.
        ByteBuffer frame = ByteBuffer.allocate(4 + 8 + 2 + 1 + 4);
        frame.putInt(15).putShort(ApiKeys.METADATA.id).putShort((short) 14).putInt(3).putShort((short) -1)
                .put((byte) 0).put(new byte[] {0, 0, 0, 0}).flip();
        client.sendRaw(frame);
        assertTrue(client.closedByServer());
    }

    @Test
    void closesIdleConnections() throws Exception {
        KafkaServer server = start(localConfig().withConnectionsMaxIdleMs(300), new ApiVersionsHandler());
        WireClient client = connect(server);
        assertTrue(client.closedByServer(), "an idle connection is closed within the read timeout");
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Test latch not released within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted waiting for a test latch", e);
        }
    }
}
