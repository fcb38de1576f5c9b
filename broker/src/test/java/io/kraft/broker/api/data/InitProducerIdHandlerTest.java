package io.kraft.broker.api.data;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.broker.network.KafkaServer;
import io.kraft.broker.network.RequestHandlerRegistry;
import io.kraft.broker.network.SocketServerConfig;
import io.kraft.broker.producer.ProducerIdManager;
import io.kraft.broker.protocol.message.ApiVersionsRequest;
import io.kraft.broker.protocol.message.ApiVersionsResponse;
import io.kraft.metadata.controller.ProducerIdBlock;
import io.kraft.metadata.image.MetadataImage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * InitProducerId waits for the controller's block of producer ids without a handler thread: with one handler thread,
 * other connections are served while an InitProducerId waits, and the wait ends with the id or, after the timeout,
 * with the retriable COORDINATOR_LOAD_IN_PROGRESS.
 */
class InitProducerIdHandlerTest {
    private static final short VERSION = 5;

    /** A controller whose blocks the test hands out by hand. */
    private final List<CompletableFuture<ProducerIdBlock>> requested = new CopyOnWriteArrayList<>();
    private KafkaServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private int start(long allocationTimeoutMs) throws Exception {
        ProducerIdManager producerIds = new ProducerIdManager(1, () -> 1L, (brokerId, brokerEpoch) -> {
            CompletableFuture<ProducerIdBlock> block = new CompletableFuture<>();
            requested.add(block);
            return block;
        }, allocationTimeoutMs);
        SocketServerConfig config = SocketServerConfig.fromProperties(Map.of(
                SocketServerConfig.LISTENERS, "PLAINTEXT://127.0.0.1:0",
                SocketServerConfig.NUM_IO_THREADS, "1"));
        server = new KafkaServer(config, RequestHandlerRegistry.of(new ApiVersionsHandler(),
                new InitProducerIdHandler(producerIds, () -> MetadataImage.EMPTY, (id, timeoutMs, producerId, epoch) ->
                        CompletableFuture.failedFuture(new io.kraft.metadata.controller.ControllerException(
                                io.kraft.storage.errors.Errors.NOT_CONTROLLER, "no transaction coordinator here")))));
        server.start();
        return server.boundPort();
    }

    private static int sendInitProducerId(WireClient client) throws Exception {
        return client.send(ApiKeys.INIT_PRODUCER_ID, VERSION, new InitProducerIdRequestData()
                .setTransactionalId(null).setTransactionTimeoutMs(60_000).setProducerId(-1).setProducerEpoch((short) -1));
    }

    private static InitProducerIdResponseData receive(WireClient client, int correlationId) throws Exception {
        return new InitProducerIdResponseData(client.receive(ApiKeys.INIT_PRODUCER_ID, VERSION, correlationId), VERSION);
    }

    /** The only handler thread is free: another connection's request is answered. */
    private static void assertOtherConnectionsServed(int port) throws Exception {
        try (WireClient other = new WireClient(port)) {
            ApiVersionsResponse response = other.send(new ApiVersionsRequest(), (short) 0);
            assertEquals(Errors.NONE.code(), response.errorCode());
        }
    }

    @Test
    void aWaitForTheControllersBlockHoldsNoHandlerThreadAndEndsWithTheId() throws Exception {
        int port = start(60_000);
        try (WireClient client = new WireClient(port)) {
            int id = sendInitProducerId(client);
            await().until(() -> requested.size() == 1);
            assertOtherConnectionsServed(port);
            assertTrue(requested.get(0).complete(new ProducerIdBlock(1, 4_000, 1_000)));
            InitProducerIdResponseData answer = receive(client, id);
            assertEquals(Errors.NONE.code(), answer.errorCode());
            assertEquals(4_000, answer.producerId());
            assertEquals(0, answer.producerEpoch());
        }
    }

    @Test
    void aControllerThatDoesNotAnswerInTimeGetsTheRetriableError() throws Exception {
        int port = start(300);
        try (WireClient client = new WireClient(port)) {
            int id = sendInitProducerId(client);
            await().until(() -> requested.size() == 1);
            assertOtherConnectionsServed(port);
            InitProducerIdResponseData answer = receive(client, id);
            assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS.code(), answer.errorCode());
            assertEquals(-1, answer.producerId());
            // The late block is not lost: it serves the producer's retry.
            requested.get(0).complete(new ProducerIdBlock(1, 4_000, 1_000));
            assertEquals(4_000, receive(client, sendInitProducerId(client)).producerId());
            assertEquals(1, requested.size());
        }
    }
}
