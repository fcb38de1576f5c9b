package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DeleteRecordsRequest;
import io.kraft.broker.protocol.message.DeleteRecordsResponse;
import io.kraft.broker.protocol.message.ListOffsetsRequest;
import io.kraft.broker.protocol.message.ListOffsetsResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A handler that fails answers its API's error response, or closes only that connection; the broker lives on. */
class HandlerFailureTest {
    private KafkaServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** ListOffsets whose handler throws but can still describe the all-failed answer. */
    private static final RequestHandler<ListOffsetsRequest, ListOffsetsResponse> FAILING_LIST_OFFSETS =
            new RequestHandler<>() {
                @Override
                public ApiKey apiKey() {
                    return ApiKey.LIST_OFFSETS;
                }

                @Override
                public ListOffsetsResponse handle(RequestContext context, ApiRequest<ListOffsetsRequest> request) {
                    throw new IllegalStateException("broken on purpose");
                }

                @Override
                public Optional<ListOffsetsResponse> errorResponse(ApiRequest<ListOffsetsRequest> request,
                                                                   io.kraft.storage.errors.Errors error) {
                    ListOffsetsResponse response = new ListOffsetsResponse();
                    for (ListOffsetsRequest.ListOffsetsTopic topic : request.body().topics()) {
                        ListOffsetsResponse.ListOffsetsTopicResponse topicOut =
                                new ListOffsetsResponse.ListOffsetsTopicResponse().setName(topic.name());
                        for (ListOffsetsRequest.ListOffsetsPartition partition : topic.partitions()) {
                            topicOut.partitions().add(new ListOffsetsResponse.ListOffsetsPartitionResponse()
                                    .setPartitionIndex(partition.partitionIndex())
                                    .setErrorCode(error.code()));
                        }
                        response.topics().add(topicOut);
                    }
                    return Optional.of(response);
                }
            };

    /** DeleteRecords whose answer fails asynchronously and has no error form. */
    private static final AsyncRequestHandler<DeleteRecordsRequest, DeleteRecordsResponse> FAILING_DELETE_RECORDS =
            new AsyncRequestHandler<>() {
                @Override
                public ApiKey apiKey() {
                    return ApiKey.DELETE_RECORDS;
                }

                @Override
                public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                                 ApiRequest<DeleteRecordsRequest> request) {
                    return CompletableFuture.failedFuture(new IllegalStateException("broken later, on purpose"));
                }
            };

    private int start() throws Exception {
        server = new KafkaServer(SocketServerConfig.defaults("PLAINTEXT", "127.0.0.1", 0),
                RequestHandlerRegistry.of(new ApiVersionsHandler(), FAILING_LIST_OFFSETS,
                        FAILING_DELETE_RECORDS));
        server.start();
        return server.boundPort();
    }

    @Test
    void aFailingHandlerGetsItsApisErrorResponseOrClosesOnlyItsConnection() throws Exception {
        int port = start();
        try (WireClient bystander = new WireClient(port)) {
            try (WireClient client = new WireClient(port)) {
                ListOffsetsRequestData request = new ListOffsetsRequestData().setReplicaId(-1);
                request.topics().add(new ListOffsetsRequestData.ListOffsetsTopic().setName("t").setPartitions(
                        new ArrayList<>(List.of(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(3)))));
                int id = client.send(ApiKeys.LIST_OFFSETS, (short) 10, request);
                ListOffsetsResponseData response = new ListOffsetsResponseData(
                        client.receive(ApiKeys.LIST_OFFSETS, (short) 10, id), (short) 10);
                ListOffsetsResponseData.ListOffsetsPartitionResponse partition =
                        response.topics().get(0).partitions().get(0);
                assertEquals(3, partition.partitionIndex());
                assertEquals(Errors.UNKNOWN_SERVER_ERROR.code(), partition.errorCode());
                assertApiVersionsAnswered(client);

                client.send(ApiKeys.DELETE_RECORDS, (short) 2, new DeleteRecordsRequestData());
                assertTrue(client.closedByServer(), "no error form: the connection closes");
            }
            assertApiVersionsAnswered(bystander);
        }
    }

    private static void assertApiVersionsAnswered(WireClient client) throws Exception {
        int id = client.send(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                .setClientSoftwareName("test").setClientSoftwareVersion("1"));
        ApiVersionsResponseData response = new ApiVersionsResponseData(
                client.receive(ApiKeys.API_VERSIONS, (short) 3, id), (short) 3);
        assertEquals(Errors.NONE.code(), response.errorCode());
    }
}
