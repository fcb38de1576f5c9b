package io.kraft.broker.network;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.WireClient;
import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DeleteRecordsRequest;
import io.kraft.broker.protocol.message.DeleteRecordsResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

/**
 * Found by the fuzzing campaign: a response that was ready but waiting behind an earlier, slower one of the same
 * connection was never released when the client went away first (its pooled buffer leaked). Every held response
 * is now discarded when the connection closes.
 */
class ClosedConnectionLeakTest {
    @Test
    void responsesHeldBehindASlowerOneAreReleasedWhenTheClientLeaves() throws Exception {
        LeakRecorder leaks = new LeakRecorder();
        CompletableFuture<HandlerResponse> slow = new CompletableFuture<>();
        AsyncRequestHandler<DeleteRecordsRequest, DeleteRecordsResponse> slowDeleteRecords = new AsyncRequestHandler<>() {
            @Override
            public ApiKey apiKey() {
                return ApiKey.DELETE_RECORDS;
            }

            @Override
            public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                             ApiRequest<DeleteRecordsRequest> request) {
                return slow;
            }
        };
        try (KafkaServer server = new KafkaServer(SocketServerConfig.defaults("PLAINTEXT", "127.0.0.1", 0),
                RequestHandlerRegistry.of(new ApiVersionsHandler(), slowDeleteRecords))) {
            server.start();
            for (int round = 0; round < 20; round++) {
                try (WireClient client = new WireClient(server.boundPort())) {
                    client.send(ApiKeys.DELETE_RECORDS, (short) 2, new DeleteRecordsRequestData());
                    for (int i = 0; i < 5; i++) {
                        client.send(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                                .setClientSoftwareName("leak-test").setClientSoftwareVersion("1"));
                    }
                    awaitTrue(() -> server.requestMemoryInUseBytes() == 0, "every request to have been handled");
                }
                awaitTrue(() -> server.openConnections() == 0, "the connection to close");
            }
            slow.complete(HandlerResponse.of(new DeleteRecordsResponse()));
            assertEquals(List.of(), leaks.collect());
        }
    }
}
