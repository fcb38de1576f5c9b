package io.kraft.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * Drives the partition side of transactions over the wire without a transaction coordinator: a producer id from
 * InitProducerId (no transactional id), transactional Produce batches built by kafka-clients, and the
 * WriteTxnMarkers a coordinator would send, all as kafka-clients' own request and response classes.
 */
public final class TxnWire implements AutoCloseable {
    private static final short PRODUCE_VERSION = 12;
    private static final short INIT_PRODUCER_ID_VERSION = 4;
    private static final short WRITE_TXN_MARKERS_VERSION = 1;

    /** A producer id and epoch with the next sequence per partition. */
    public static final class Producer {
        public final long id;
        public final short epoch;
        private final Map<Integer, Integer> nextSequence = new java.util.HashMap<>();

        Producer(long id, short epoch) {
            this.id = id;
            this.epoch = epoch;
        }
    }

    private final WireClient client;

    public TxnWire(int port) throws IOException {
        this.client = new WireClient(port);
    }

    /** A new idempotent producer id (what the coordinator will hand a transactional producer). */
    public Producer newProducer() throws IOException {
        int id = client.send(ApiKeys.INIT_PRODUCER_ID, INIT_PRODUCER_ID_VERSION, new InitProducerIdRequestData()
                .setTransactionalId(null).setTransactionTimeoutMs(60_000).setProducerId(-1).setProducerEpoch((short) -1));
        InitProducerIdResponseData answer = new InitProducerIdResponseData(client.receive(ApiKeys.INIT_PRODUCER_ID,
                INIT_PRODUCER_ID_VERSION, id), INIT_PRODUCER_ID_VERSION);
        if (answer.errorCode() != 0) {
            throw new AssertionError("InitProducerId failed: " + Errors.forCode(answer.errorCode()));
        }
        return new Producer(answer.producerId(), answer.producerEpoch());
    }

    /**
     * Sends one transactional batch of {@code values} (keys = values) with acks=all.
     *
     * @return the base offset
     */
    public long produce(Producer producer, String topic, int partition, String... values) throws IOException {
        int sequence = producer.nextSequence.getOrDefault(partition, 0);
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            byte[] bytes = values[i].getBytes(StandardCharsets.UTF_8);
            records[i] = new SimpleRecord(System.currentTimeMillis(), bytes, bytes);
        }
        // No transactional id: these producers have no coordinator state (their ids come from a plain
        // InitProducerId, their markers from WriteTxnMarkers), and a broker verifies a transactional Produce against
        // its coordinator (KIP-890) only when the request names one, as Kafka's does.
        ProduceRequestData request = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000)
                .setTransactionalId(null);
        ProduceRequestData.TopicProduceData topicData = new ProduceRequestData.TopicProduceData().setName(topic);
        topicData.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(partition)
                .setRecords(MemoryRecords.withTransactionalRecords(Compression.NONE, producer.id, producer.epoch,
                        sequence, records)));
        request.topicData().add(topicData);
        int id = client.send(ApiKeys.PRODUCE, PRODUCE_VERSION, request);
        ProduceResponseData response = new ProduceResponseData(client.receive(ApiKeys.PRODUCE, PRODUCE_VERSION, id),
                PRODUCE_VERSION);
        ProduceResponseData.PartitionProduceResponse answer = response.responses().iterator().next()
                .partitionResponses().get(0);
        if (answer.errorCode() != 0) {
            throw new AssertionError("transactional produce to " + topic + "-" + partition + " failed: "
                    + Errors.forCode(answer.errorCode()) + " " + answer.errorMessage());
        }
        producer.nextSequence.put(partition, sequence + values.length);
        return answer.baseOffset();
    }

    /**
     * Sends WriteTxnMarkers for one producer's transaction to {@code partitions} of {@code topic}.
     *
     * @return the error of each partition, in request order
     */
    public List<Errors> writeMarkers(long producerId, short epoch, int coordinatorEpoch, boolean commit, String topic,
                                     int... partitions) throws IOException {
        List<Integer> indexes = new ArrayList<>();
        for (int partition : partitions) {
            indexes.add(partition);
        }
        WriteTxnMarkersRequestData request = new WriteTxnMarkersRequestData();
        request.markers().add(new WriteTxnMarkersRequestData.WritableTxnMarker().setProducerId(producerId)
                .setProducerEpoch(epoch).setTransactionResult(commit).setCoordinatorEpoch(coordinatorEpoch)
                .setTopics(List.of(new WriteTxnMarkersRequestData.WritableTxnMarkerTopic().setName(topic)
                        .setPartitionIndexes(indexes))));
        int id = client.send(ApiKeys.WRITE_TXN_MARKERS, WRITE_TXN_MARKERS_VERSION, request);
        WriteTxnMarkersResponseData response = new WriteTxnMarkersResponseData(client.receive(
                ApiKeys.WRITE_TXN_MARKERS, WRITE_TXN_MARKERS_VERSION, id), WRITE_TXN_MARKERS_VERSION);
        List<Errors> errors = new ArrayList<>();
        for (WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult result : response.markers().get(0).topics()
                .get(0).partitions()) {
            errors.add(Errors.forCode(result.errorCode()));
        }
        return errors;
    }

    /** Commits (or aborts) {@code producer}'s transaction on {@code partitions}, expecting success. */
    public void end(Producer producer, boolean commit, String topic, int... partitions) throws IOException {
        List<Errors> errors = writeMarkers(producer.id, producer.epoch, 0, commit, topic, partitions);
        for (Errors error : errors) {
            if (error != Errors.NONE) {
                throw new AssertionError((commit ? "commit" : "abort") + " of producer " + producer.id + " failed: "
                        + errors);
            }
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
