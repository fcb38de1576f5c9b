package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kraft.broker.WireClient;
import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.api.data.MetadataHandler;
import io.kraft.broker.protocol.RequestFrame;
import io.kraft.metadata.image.MetadataImage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Metadata at every version 0-13, requests and responses judged by kafka-clients. */
class MetadataWireTest {
    private final AtomicReference<MetadataImage> image = new AtomicReference<>(MetadataImage.EMPTY);
    private KafkaServer server;
    private WireClient client;
    private int correlationId;

    @BeforeEach
    void start() throws Exception {
        server = new KafkaServer(SocketServerConfig.defaults("PLAINTEXT", "127.0.0.1", 0),
                RequestHandlerRegistry.of(new ApiVersionsHandler(), new MetadataHandler(image::get, TestImages.CLUSTER_ID)));
        server.start();
        image.set(TestImages.oneBrokerWithOrders(server.boundPort()));
        client = new WireClient(server.boundPort());
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        server.close();
    }

    /**
     * Sends a Metadata request for {@code topics} (null = all) at {@code version}: serialized by kafka-clients
     * where it still builds that version, else by our codec (kafka-clients 4.x no longer builds v0);
     * the response is always parsed by kafka-clients' own reader.
     */
    private MetadataResponseData metadata(short version, List<String> topics) throws Exception {
        int id = correlationId++;
        if (version >= 1) {
            RequestHeader header = new RequestHeader(ApiKeys.METADATA, version, "wire-test", id);
            MetadataRequest.Builder builder = topics == null ? MetadataRequest.Builder.allTopics()
                    : new MetadataRequest.Builder(topics, version < 4);
            client.send(builder.build(version), header);
            return ((MetadataResponse) AbstractResponse.parseResponse(client.receiveFrame(), header)).data();
        }
        io.kraft.broker.protocol.message.MetadataRequest body = new io.kraft.broker.protocol.message.MetadataRequest();
        if (topics == null) {
            body.setTopics(version == 0 ? new ArrayList<>() : null);
        } else {
            for (String topic : topics) {
                body.topics().add(new io.kraft.broker.protocol.message.MetadataRequest.MetadataRequestTopic()
                        .setName(topic));
            }
        }
        client.sendRaw(RequestFrame.toBuffer(id, "wire-test", body, version));
        ByteBuffer response = client.receiveFrame();
        assertEquals(id, ResponseHeader.parse(response, ApiKeys.METADATA.responseHeaderVersion(version)).correlationId());
        return new MetadataResponseData(new ByteBufferAccessor(response), version);
    }

    @Test
    void describesBrokersAndTopicsAtEveryVersion() throws Exception {
        for (short version = 0; version <= 13; version++) {
            String at = "v" + version;
            MetadataResponseData response = metadata(version, List.of(TestImages.ORDERS, "missing"));
            assertEquals(1, response.brokers().size(), at + ": only unfenced brokers on this listener");
            MetadataResponseData.MetadataResponseBroker broker = response.brokers().iterator().next();
            assertEquals(1, broker.nodeId());
            assertEquals("127.0.0.1", broker.host());
            assertEquals(server.boundPort(), broker.port());
            if (version >= 1) {
                assertEquals(1, response.controllerId(), at);
            }
            if (version >= 2) {
                assertEquals(TestImages.CLUSTER_ID, response.clusterId(), at);
            }
            assertEquals(2, response.topics().size(), at);
            MetadataResponseTopic orders = response.topics().find(TestImages.ORDERS);
            assertEquals(Errors.NONE.code(), orders.errorCode(), at);
            assertFalse(orders.isInternal());
            if (version >= 10) {
                assertEquals(new Uuid(TestImages.ORDERS_ID.getMostSignificantBits(),
                        TestImages.ORDERS_ID.getLeastSignificantBits()), orders.topicId(), at);
            }
            if (version >= 8) {
                assertEquals(Integer.MIN_VALUE, orders.topicAuthorizedOperations(), at);
            }
            Map<Integer, MetadataResponsePartition> partitions = orders.partitions().stream()
                    .collect(Collectors.toMap(MetadataResponsePartition::partitionIndex, Function.identity()));
            assertEquals(3, partitions.size(), at);
            MetadataResponsePartition zero = partitions.get(0);
            assertEquals(Errors.NONE.code(), zero.errorCode(), at);
            assertEquals(1, zero.leaderId(), at);
            assertEquals(List.of(1, 3), zero.replicaNodes(), at);
            assertEquals(List.of(1), zero.isrNodes(), at);
            if (version >= 5) {
                assertEquals(List.of(3), zero.offlineReplicas(), at + ": fenced broker 3 is offline");
            }
            if (version >= 7) {
                assertEquals(4, zero.leaderEpoch(), at);
            }
            MetadataResponsePartition ledByFenced = partitions.get(2);
            assertEquals(Errors.LEADER_NOT_AVAILABLE.code(), ledByFenced.errorCode(), at);
            MetadataResponseTopic missing = response.topics().find("missing");
            assertNotNull(missing, at);
            assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), missing.errorCode(), at);
            assertEquals(0, missing.partitions().size(), at);
            if (version >= 13) {
                assertEquals(Errors.NONE.code(), response.errorCode(), at);
            }
        }
    }

    @Test
    void listsEveryTopicWhenAskedForAllAtEveryVersion() throws Exception {
        for (short version = 0; version <= 13; version++) {
            MetadataResponseData response = metadata(version, null);
            assertEquals(1, response.topics().size(), "v" + version);
            assertEquals(3, response.topics().find(TestImages.ORDERS).partitions().size(), "v" + version);
        }
    }

    @Test
    void answersAnEmptyTopicListWithNoTopicsFromV1() throws Exception {
        for (short version = 1; version <= 13; version++) {
            MetadataResponseData response = metadata(version, List.of());
            assertEquals(0, response.topics().size(), "v" + version);
            assertEquals(1, response.brokers().size(), "v" + version);
        }
    }

    @Test
    void reportsAnUnknownTopicIdAndNoControllerWhenNoBrokerIsLive() throws Exception {
        image.set(MetadataImage.EMPTY);
        int id = correlationId++;
        short version = 13;
        RequestHeader header = new RequestHeader(ApiKeys.METADATA, version, "wire-test", id);
        Uuid unknown = Uuid.randomUuid();
        client.send(MetadataRequest.Builder.forTopicIds(java.util.Set.of(unknown)).build(version), header);
        MetadataResponseData response =
                ((MetadataResponse) AbstractResponse.parseResponse(client.receiveFrame(), header)).data();
        assertEquals(-1, response.controllerId());
        assertEquals(0, response.brokers().size());
        MetadataResponseTopic topic = response.topics().iterator().next();
        assertEquals(Errors.UNKNOWN_TOPIC_ID.code(), topic.errorCode());
        assertEquals(unknown, topic.topicId());
        assertNull(topic.name());
    }
}
