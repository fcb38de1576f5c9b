package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.protocol.message.FetchResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Small fetches, consumers' and replicas', run on their connection's network thread; large ones on the pool. */
class InlineRequestsTest {
    private static final short VERSION = 12;
    private final List<String> handlerThreads = new CopyOnWriteArrayList<>();
    private KafkaServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Answers every fetch with an empty response, noting the thread it ran on. */
    private final AsyncRequestHandler<FetchRequest, FetchResponse> fetchHandler = new AsyncRequestHandler<>() {
        @Override
        public ApiKey apiKey() {
            return ApiKey.FETCH;
        }

        @Override
        public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<FetchRequest> request) {
            handlerThreads.add(Thread.currentThread().getName());
            return CompletableFuture.completedFuture(HandlerResponse.of(new FetchResponse()));
        }
    };

    @Test
    void smallFetchesRunOnTheNetworkThreadLargeOnesOnThePool() throws Exception {
        server = new KafkaServer(SocketServerConfig.defaults("PLAINTEXT", "127.0.0.1", 0),
                RequestHandlerRegistry.of(new ApiVersionsHandler(), fetchHandler));
        server.start();
        try (WireClient client = new WireClient(server.boundPort())) {
            // Pipelined: the answers still come in request order, one per request.
            int consumer = client.sendRequest(new FetchRequest().setReplicaId(-1), VERSION);
            int follower = client.sendRequest(new FetchRequest().setReplicaId(1), VERSION);
            int large = client.sendRequest(new FetchRequest().setReplicaId(-1)
                    .setRackId("r".repeat(InlineRequests.MAX_INLINE_FRAME_BYTES)), VERSION);
            int again = client.sendRequest(new FetchRequest().setReplicaId(-1), VERSION);
            for (int id : new int[] {consumer, follower, large, again}) {
                FetchResponse response = client.receiveResponse(ApiKey.FETCH, VERSION, id);
                assertEquals(0, response.errorCode());
            }
        }
        assertEquals(4, handlerThreads.size(), handlerThreads.toString());
        assertTrue(handlerThreads.get(0).startsWith("kafka-network-thread-"), handlerThreads.toString());
        assertTrue(handlerThreads.get(1).startsWith("kafka-network-thread-"), handlerThreads.toString());
        assertFalse(handlerThreads.get(2).startsWith("kafka-network-thread-"), handlerThreads.toString());
        assertTrue(handlerThreads.get(3).startsWith("kafka-network-thread-"), handlerThreads.toString());
    }
}
