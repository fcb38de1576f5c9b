package io.kraft.broker.api.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.ApiVersionsTable;
import io.kraft.broker.protocol.RequestHeader;
import io.kraft.broker.protocol.message.ProduceRequest;
import io.kraft.broker.protocol.message.ProduceRequest.PartitionProduceData;
import io.kraft.broker.protocol.message.ProduceRequest.TopicProduceData;
import io.kraft.broker.protocol.message.ProduceResponse;
import io.kraft.broker.protocol.message.ProduceResponse.PartitionProduceResponse;
import io.kraft.broker.txn.TransactionVerifier;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.TopicPartitions;
import io.kraft.proto.metadata.TransactionRecord;
import io.kraft.proto.metadata.TransactionState;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatchBuilder;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transactional producer's pipelined Produce requests append in request order even when the first waits for the
 * broker's image to show its partition in the transaction: the second, which finds the partition verified at once,
 * must not overtake it (it would be refused with OUT_OF_ORDER_SEQUENCE_NUMBER after the first was accepted, which
 * fails the producer's transaction). Kafka Streams with exactly_once_v2 ran into this under load.
 */
class TransactionalProduceOrderTest {
    private static final String TRANSACTIONAL_ID = "txn-order";
    private static final long PRODUCER_ID = 42;
    private static final short PRODUCER_EPOCH = 0;
    private static final RequestContext CONTEXT = new RequestContext("PLAINTEXT",
            new InetSocketAddress("127.0.0.1", 1234), ApiVersionsTable.allDeclared());

    @TempDir
    Path logDir;

    @Test
    void aRequestBehindOneWaitingForTheImageAppendsAfterIt() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(logDir, Map.of())) {
            UUID topicId = broker.createTopic("t", 1, Map.of());
            TransactionVerifier verifier = new TransactionVerifier(10_000);
            ProduceHandler handler = new ProduceHandler(broker.replicaManager(), verifier);
            MetadataImage before = broker.image();
            verifier.publish(new MetadataDelta(before), before);
            MetadataDelta added = new MetadataDelta(before);
            added.replay(ongoing(topicId), 1_000_000L, 1);
            MetadataImage after = added.apply();

            CompletableFuture<HandlerResponse> first = handler.handle(CONTEXT, produce(1, 0));
            assertFalse(first.isDone(), "the image does not show the partition in the transaction yet");
            // The image shows it now, but the waiting request is not told yet (the publisher is between taking the
            // new image and completing its waiters) when the producer's next request comes in.
            verifier.publish(new MetadataDelta(after), after);
            CompletableFuture<HandlerResponse> second = handler.handle(CONTEXT, produce(2, 2));
            verifier.publish(added, after);

            PartitionProduceResponse firstAnswer = answer(first);
            PartitionProduceResponse secondAnswer = answer(second);
            assertEquals(Errors.NONE.code(), firstAnswer.errorCode(), firstAnswer.toString());
            assertEquals(0L, firstAnswer.baseOffset());
            assertEquals(Errors.NONE.code(), secondAnswer.errorCode(), secondAnswer.toString());
            assertEquals(2L, secondAnswer.baseOffset(), "the second request's records follow the first's");
        }
    }

    private static io.kraft.proto.metadata.MetadataRecord ongoing(UUID topicId) {
        return MetadataRecords.of(TransactionRecord.newBuilder().setTransactionalId(TRANSACTIONAL_ID)
                .setProducerId(PRODUCER_ID).setProducerEpoch(PRODUCER_EPOCH).setPreviousProducerId(-1)
                .setPreviousProducerEpoch(-1).setTimeoutMs(60_000).setState(TransactionState.TRANSACTION_STATE_ONGOING)
                .setStartTimeMs(1).setUpdateTimeMs(2)
                .addAddedPartitions(TopicPartitions.newBuilder().setTopicId(Uuids.toProto(topicId)).addPartitions(0))
                .build());
    }

    /** A Produce (acks=1) of one transactional batch of two records from sequence {@code baseSequence}. */
    private static ApiRequest<ProduceRequest> produce(int correlationId, int baseSequence) {
        ByteBuffer batch = new RecordBatchBuilder(ByteBuffer.allocate(1024), CompressionType.NONE, 0)
                .producer(PRODUCER_ID, PRODUCER_EPOCH, baseSequence).transactional(true)
                .append(1_000L, (byte[]) null, ("v" + baseSequence).getBytes(StandardCharsets.UTF_8))
                .append(1_000L, (byte[]) null, ("v" + (baseSequence + 1)).getBytes(StandardCharsets.UTF_8))
                .build();
        TopicProduceData topic = new TopicProduceData().setName("t")
                .setPartitionData(new ArrayList<>(List.of(new PartitionProduceData().setIndex(0).setRecords(batch))));
        ProduceRequest body = new ProduceRequest().setTransactionalId(TRANSACTIONAL_ID).setAcks((short) 1)
                .setTimeoutMs(30_000).setTopicData(new ArrayList<>(List.of(topic)));
        return new ApiRequest<>(new RequestHeader(ApiKey.PRODUCE.id(), (short) 9, correlationId, "order-test",
                (short) 2), ApiKey.PRODUCE, body);
    }

    private static PartitionProduceResponse answer(CompletableFuture<HandlerResponse> response) throws Exception {
        HandlerResponse.Body body = (HandlerResponse.Body) response.get(10, TimeUnit.SECONDS);
        return ((ProduceResponse) body.body()).responses().get(0).partitionResponses().get(0);
    }
}
