package io.kraft.broker.network;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.WireClient;
import io.kraft.storage.log.TopicPartition;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data-path APIs on the wire, written and read with kafka-clients' own message classes: every advertised
 * version range at both ends, and bad input answered with the right error codes while the broker keeps serving
 * another client.
 */
class DataPathWireTest {
    private static final int MAX_BYTES = 1 << 20;
    /** The topic another client writes to, to show the broker still serves after bad input elsewhere. */
    private static final String ALIVE = "alive";

    @TempDir
    static Path logDir;

    private static StandaloneBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of());
        broker.createTopic(ALIVE, 1, Map.of());
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static WireClient connect() throws Exception {
        return new WireClient(broker.port());
    }

    static MemoryRecords records(int count, String prefix) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(1_000L + i, (prefix + "-k" + i).getBytes(StandardCharsets.UTF_8),
                    (prefix + "-v" + i).getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(Compression.NONE, records);
    }

    static ProduceRequestData produceRequest(String topic, int partition, short acks, MemoryRecords records) {
        ProduceRequestData request = new ProduceRequestData().setAcks(acks).setTimeoutMs(10_000);
        ProduceRequestData.TopicProduceData topicData = new ProduceRequestData.TopicProduceData().setName(topic);
        topicData.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(partition)
                .setRecords(records));
        request.topicData().add(topicData);
        return request;
    }

    static ProduceResponseData.PartitionProduceResponse produce(WireClient client, short version, String topic,
                                                                int partition, short acks, MemoryRecords records)
            throws Exception {
        int id = client.send(ApiKeys.PRODUCE, version, produceRequest(topic, partition, acks, records));
        ProduceResponseData response = new ProduceResponseData(client.receive(ApiKeys.PRODUCE, version, id), version);
        return response.responses().iterator().next().partitionResponses().get(0);
    }

    static FetchRequestData fetchRequest(String topic, UUID topicId, int partition, long offset, int currentLeaderEpoch) {
        FetchRequestData request = new FetchRequestData().setMaxWaitMs(0).setMinBytes(1).setMaxBytes(MAX_BYTES)
                .setSessionId(0).setSessionEpoch(-1);
        request.topics().add(new FetchRequestData.FetchTopic().setTopic(topic)
                .setTopicId(new Uuid(topicId.getMostSignificantBits(), topicId.getLeastSignificantBits()))
                .setPartitions(new ArrayList<>(List.of(new FetchRequestData.FetchPartition().setPartition(partition)
                        .setFetchOffset(offset).setPartitionMaxBytes(MAX_BYTES).setCurrentLeaderEpoch(currentLeaderEpoch)))));
        return request;
    }

    static FetchResponseData fetch(WireClient client, short version, FetchRequestData request) throws Exception {
        int id = client.send(ApiKeys.FETCH, version, request);
        return new FetchResponseData(client.receive(ApiKeys.FETCH, version, id), version);
    }

    private static List<Long> offsetsOf(FetchResponseData.PartitionData partition) {
        List<Long> offsets = new ArrayList<>();
        MemoryRecords records = (MemoryRecords) partition.records();
        records.records().forEach(record -> offsets.add(record.offset()));
        return offsets;
    }

    private static long logEnd(String topic) {
        return broker.replicaManager().partition(new TopicPartition(topic, 0)).orElseThrow().logEndOffset();
    }

    /** Another client produces and reads back, proving the broker still serves. */
    private static void assertStillServing() throws Exception {
        try (WireClient other = connect()) {
            long before = logEnd(ALIVE);
            ProduceResponseData.PartitionProduceResponse produced = produce(other, (short) 12, ALIVE, 0, (short) 1,
                    records(1, "alive"));
            assertEquals(Errors.NONE.code(), produced.errorCode());
            assertEquals(before, produced.baseOffset());
        }
    }

    @Test
    void produceAtBothEndsOfItsRangeAndFetchAtBothEnds() throws Exception {
        UUID topicId = broker.createTopic("ends", 1, Map.of());
        try (WireClient client = connect()) {
            for (short version : new short[] {3, 12}) {
                ProduceResponseData.PartitionProduceResponse response = produce(client, version, "ends", 0, (short) -1,
                        records(3, "v" + version));
                assertEquals(Errors.NONE.code(), response.errorCode(), "produce v" + version);
                assertEquals(version == 3 ? 0 : 3, response.baseOffset());
                assertEquals(-1, response.logAppendTimeMs());
                if (version >= 5) {
                    assertEquals(0, response.logStartOffset());
                }
            }
            for (short version : new short[] {4, 17}) {
                FetchResponseData response = fetch(client, version, fetchRequest("ends", topicId, 0, 1, -1));
                assertEquals(Errors.NONE.code(), response.errorCode());
                FetchResponseData.FetchableTopicResponse topic = response.responses().get(0);
                if (version >= 13) {
                    assertEquals(topicId, new UUID(topic.topicId().getMostSignificantBits(),
                            topic.topicId().getLeastSignificantBits()));
                } else {
                    assertEquals("ends", topic.topic());
                }
                FetchResponseData.PartitionData partition = topic.partitions().get(0);
                assertEquals(Errors.NONE.code(), partition.errorCode(), "fetch v" + version);
                assertEquals(6, partition.highWatermark());
                assertEquals(6, partition.lastStableOffset());
                // The whole batch holding offset 1 comes back (batch 0-2), then the second batch.
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L), offsetsOf(partition), "fetch v" + version);
                for (RecordBatch batch : ((MemoryRecords) partition.records()).batches()) {
                    batch.ensureValid();
                    assertEquals(0, batch.partitionLeaderEpoch());
                }
            }
        }
    }

    @Test
    void produceVersionsBelowThreeAreAnsweredWithUnsupportedVersion() throws Exception {
        broker.createTopic("legacy", 1, Map.of());
        byte[] records = records(1, "old").buffer().array();
        try (WireClient client = connect()) {
            for (short version : new short[] {0, 2}) {
                byte[] clientId = "old-client".getBytes(StandardCharsets.UTF_8);
                byte[] topic = "legacy".getBytes(StandardCharsets.UTF_8);
                ByteBuffer frame = ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + clientId.length + 2 + 4 + 4 + 2 + topic.length
                        + 4 + 4 + 4 + records.length);
                frame.putInt(frame.capacity() - 4).putShort((short) 0).putShort(version).putInt(40 + version)
                        .putShort((short) clientId.length).put(clientId)
                        .putShort((short) 1).putInt(5_000)
                        .putInt(1).putShort((short) topic.length).put(topic)
                        .putInt(1).putInt(0).putInt(records.length).put(records).flip();
                client.sendRaw(frame);
                ByteBuffer response = client.receiveFrame();
                assertEquals(40 + version, response.getInt());
                assertEquals(1, response.getInt(), "one topic");
                short nameLength = response.getShort();
                response.position(response.position() + nameLength);
                assertEquals(1, response.getInt(), "one partition");
                assertEquals(0, response.getInt());
                assertEquals(Errors.UNSUPPORTED_VERSION.code(), response.getShort(), "produce v" + version);
            }
        }
        assertEquals(0, logEnd("legacy"), "nothing written");
    }

    @Test
    void listOffsetsOffsetForLeaderEpochAndDeleteRecordsAtBothEnds() throws Exception {
        broker.createTopic("lookups", 1, Map.of());
        try (WireClient client = connect()) {
            produce(client, (short) 12, "lookups", 0, (short) 1, records(10, "a"));
            for (short version : new short[] {1, 10}) {
                ListOffsetsRequestData request = new ListOffsetsRequestData().setReplicaId(-1);
                request.topics().add(new ListOffsetsRequestData.ListOffsetsTopic().setName("lookups").setPartitions(
                        new ArrayList<>(List.of(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0)
                                .setTimestamp(-1L).setCurrentLeaderEpoch(-1)))));
                int id = client.send(ApiKeys.LIST_OFFSETS, version, request);
                ListOffsetsResponseData response = new ListOffsetsResponseData(
                        client.receive(ApiKeys.LIST_OFFSETS, version, id), version);
                ListOffsetsResponseData.ListOffsetsPartitionResponse partition =
                        response.topics().get(0).partitions().get(0);
                assertEquals(Errors.NONE.code(), partition.errorCode(), "list offsets v" + version);
                assertEquals(10, partition.offset());
                if (version >= 4) {
                    assertEquals(0, partition.leaderEpoch());
                }
            }
            for (short version : new short[] {2, 4}) {
                OffsetForLeaderEpochRequestData request = new OffsetForLeaderEpochRequestData();
                OffsetForLeaderEpochRequestData.OffsetForLeaderTopic topic =
                        new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic().setTopic("lookups");
                topic.partitions().add(new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition().setPartition(0)
                        .setCurrentLeaderEpoch(0).setLeaderEpoch(0));
                request.topics().add(topic);
                int id = client.send(ApiKeys.OFFSET_FOR_LEADER_EPOCH, version, request);
                OffsetForLeaderEpochResponseData response = new OffsetForLeaderEpochResponseData(
                        client.receive(ApiKeys.OFFSET_FOR_LEADER_EPOCH, version, id), version);
                OffsetForLeaderEpochResponseData.EpochEndOffset answer =
                        response.topics().iterator().next().partitions().get(0);
                assertEquals(Errors.NONE.code(), answer.errorCode(), "offset for leader epoch v" + version);
                assertEquals(0, answer.leaderEpoch());
                assertEquals(10, answer.endOffset());
            }
            long[] deleteBefore = {3, 6};
            short[] versions = {0, 2};
            for (int i = 0; i < versions.length; i++) {
                short version = versions[i];
                DeleteRecordsRequestData request = new DeleteRecordsRequestData().setTimeoutMs(5_000);
                request.topics().add(new DeleteRecordsRequestData.DeleteRecordsTopic().setName("lookups").setPartitions(
                        new ArrayList<>(List.of(new DeleteRecordsRequestData.DeleteRecordsPartition().setPartitionIndex(0)
                                .setOffset(deleteBefore[i])))));
                int id = client.send(ApiKeys.DELETE_RECORDS, version, request);
                DeleteRecordsResponseData response = new DeleteRecordsResponseData(
                        client.receive(ApiKeys.DELETE_RECORDS, version, id), version);
                DeleteRecordsResponseData.DeleteRecordsPartitionResult result =
                        response.topics().iterator().next().partitions().iterator().next();
                assertEquals(Errors.NONE.code(), result.errorCode(), "delete records v" + version);
                assertEquals(deleteBefore[i], result.lowWatermark());
            }
        }
    }

    @Test
    void fetchSessionErrors() throws Exception {
        UUID topicId = broker.createTopic("sessions", 1, Map.of());
        try (WireClient client = connect()) {
            FetchRequestData unknown = fetchRequest("sessions", topicId, 0, 0, -1).setSessionId(12_345).setSessionEpoch(3);
            assertEquals(Errors.FETCH_SESSION_ID_NOT_FOUND.code(), fetch(client, (short) 17, unknown).errorCode());

            FetchResponseData opened = fetch(client, (short) 17, fetchRequest("sessions", topicId, 0, 0, -1)
                    .setSessionEpoch(0));
            assertEquals(Errors.NONE.code(), opened.errorCode());
            assertTrue(opened.sessionId() != 0, "a full fetch at epoch 0 opens a session");
            FetchRequestData wrongEpoch = new FetchRequestData().setMaxWaitMs(0).setMinBytes(1).setMaxBytes(MAX_BYTES)
                    .setSessionId(opened.sessionId()).setSessionEpoch(5);
            assertEquals(Errors.INVALID_FETCH_SESSION_EPOCH.code(), fetch(client, (short) 17, wrongEpoch).errorCode());

            // The right epoch: an incremental fetch with no changes carries no partitions...
            FetchRequestData incremental = new FetchRequestData().setMaxWaitMs(0).setMinBytes(1).setMaxBytes(MAX_BYTES)
                    .setSessionId(opened.sessionId()).setSessionEpoch(1);
            FetchResponseData quiet = fetch(client, (short) 17, incremental);
            assertEquals(Errors.NONE.code(), quiet.errorCode());
            assertEquals(opened.sessionId(), quiet.sessionId());
            assertTrue(quiet.responses().isEmpty(), "nothing changed, nothing sent");
            // ...until the partition has new data.
            produce(client, (short) 12, "sessions", 0, (short) 1, records(2, "s"));
            FetchResponseData changed = fetch(client, (short) 17, incremental.setSessionEpoch(2));
            assertEquals(1, changed.responses().size());
            assertEquals(List.of(0L, 1L), offsetsOf(changed.responses().get(0).partitions().get(0)));
            // Session ids are per version family: v4 has none and answers session id 0.
            assertEquals(0, fetch(client, (short) 4, fetchRequest("sessions", topicId, 0, 0, -1)).sessionId());
        }
        assertStillServing();
    }

    @Test
    void fetchErrorsForOffsetsEpochsAndUnknownTopics() throws Exception {
        UUID topicId = broker.createTopic("epochs", 1, Map.of());
        try (WireClient client = connect()) {
            produce(client, (short) 12, "epochs", 0, (short) 1, records(2, "e"));
            broker.bumpLeaderEpoch(topicId, 0);
            FetchResponseData.PartitionData outOfRange = fetch(client, (short) 17,
                    fetchRequest("epochs", topicId, 0, 50, -1)).responses().get(0).partitions().get(0);
            assertEquals(Errors.OFFSET_OUT_OF_RANGE.code(), outOfRange.errorCode());
            FetchResponseData.PartitionData fenced = fetch(client, (short) 17,
                    fetchRequest("epochs", topicId, 0, 0, 0)).responses().get(0).partitions().get(0);
            assertEquals(Errors.FENCED_LEADER_EPOCH.code(), fenced.errorCode());
            assertEquals(1, fenced.currentLeader().leaderEpoch());
            FetchResponseData.PartitionData unknownEpoch = fetch(client, (short) 17,
                    fetchRequest("epochs", topicId, 0, 0, 7)).responses().get(0).partitions().get(0);
            assertEquals(Errors.UNKNOWN_LEADER_EPOCH.code(), unknownEpoch.errorCode());
            assertEquals(Errors.NONE.code(), fetch(client, (short) 17, fetchRequest("epochs", topicId, 0, 0, 1))
                    .responses().get(0).partitions().get(0).errorCode());
            FetchResponseData.PartitionData unknownId = fetch(client, (short) 17,
                    fetchRequest("epochs", UUID.randomUUID(), 0, 0, -1)).responses().get(0).partitions().get(0);
            assertEquals(Errors.UNKNOWN_TOPIC_ID.code(), unknownId.errorCode());
            FetchResponseData.PartitionData unknownName = fetch(client, (short) 12,
                    fetchRequest("no-such-topic", topicId, 0, 0, -1)).responses().get(0).partitions().get(0);
            assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), unknownName.errorCode());
        }
        assertStillServing();
    }

    @Test
    void produceWithACorruptCrcIsRejectedAndNothingIsWritten() throws Exception {
        broker.createTopic("corrupt", 1, Map.of());
        MemoryRecords records = records(3, "c");
        ByteBuffer bytes = records.buffer();
        int lastByte = bytes.limit() - 1;
        bytes.put(lastByte, (byte) (bytes.get(lastByte) ^ 0x5A));
        try (WireClient client = connect()) {
            ProduceResponseData.PartitionProduceResponse response = produce(client, (short) 12, "corrupt", 0, (short) -1,
                    MemoryRecords.readableRecords(bytes));
            assertEquals(Errors.CORRUPT_MESSAGE.code(), response.errorCode());
            assertTrue(response.errorMessage() != null && !response.errorMessage().isEmpty());
        }
        assertEquals(0, logEnd("corrupt"));
        assertStillServing();
    }

    @Test
    void anOversizeBatchIsRejectedWithMessageTooLarge() throws Exception {
        broker.createTopic("small", 1, Map.of("max.message.bytes", "1000"));
        SimpleRecord big = new SimpleRecord(1L, null, new byte[5_000]);
        try (WireClient client = connect()) {
            ProduceResponseData.PartitionProduceResponse response = produce(client, (short) 12, "small", 0, (short) 1,
                    MemoryRecords.withRecords(Compression.NONE, big));
            assertEquals(Errors.MESSAGE_TOO_LARGE.code(), response.errorCode());
        }
        assertEquals(0, logEnd("small"));
        assertStillServing();
    }

    @Test
    void invalidAcksInternalTopicsAndUnknownTopicsAreRefused() throws Exception {
        broker.createTopic("acks", 1, Map.of());
        broker.createTopic("__consumer_offsets", 1, Map.of());
        try (WireClient client = connect()) {
            assertEquals(Errors.INVALID_REQUIRED_ACKS.code(),
                    produce(client, (short) 12, "acks", 0, (short) 5, records(1, "x")).errorCode());
            assertEquals(Errors.INVALID_TOPIC_EXCEPTION.code(),
                    produce(client, (short) 12, "__consumer_offsets", 0, (short) 1, records(1, "x")).errorCode());
            assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    produce(client, (short) 12, "missing", 0, (short) 1, records(1, "x")).errorCode());
            assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    produce(client, (short) 12, "acks", 7, (short) 1, records(1, "x")).errorCode());
        }
        assertEquals(0, logEnd("acks"));
        assertStillServing();
    }

    @Test
    void acksZeroGetsNoResponseAndAFailedOneClosesTheConnection() throws Exception {
        broker.createTopic("fire-and-forget", 1, Map.of());
        try (WireClient client = connect()) {
            client.send(ApiKeys.PRODUCE, (short) 12, produceRequest("fire-and-forget", 0, (short) 0, records(2, "z")));
            // The next response on the connection answers the next request: acks=0 got none.
            ProduceResponseData.PartitionProduceResponse next = produce(client, (short) 12, "fire-and-forget", 0,
                    (short) 1, records(1, "y"));
            assertEquals(Errors.NONE.code(), next.errorCode());
            assertEquals(2, next.baseOffset(), "the acks=0 records were written first");
        }
        try (WireClient client = connect()) {
            client.send(ApiKeys.PRODUCE, (short) 12, produceRequest("missing", 0, (short) 0, records(1, "z")));
            assertTrue(client.closedByServer(), "a failed acks=0 produce closes its connection");
        }
        // A producer may send acks=0 requests and hang up at once: what arrived is still written.
        try (WireClient client = connect()) {
            for (int i = 0; i < 5; i++) {
                client.send(ApiKeys.PRODUCE, (short) 12, produceRequest("fire-and-forget", 0, (short) 0,
                        records(2, "q" + i)));
            }
        }
        awaitTrue(() -> logEnd("fire-and-forget") >= 13, "the requests sent before the hang-up to be written");
        assertStillServing();
    }

    private static MemoryRecords idempotent(long producerId, short epoch, int baseSequence, int count) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(System.currentTimeMillis(), ("k" + i).getBytes(StandardCharsets.UTF_8),
                    ("v" + (baseSequence + i)).getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, epoch, baseSequence, records);
    }

    @Test
    void idempotentProduceErrorsAndDuplicatesOnTheWire() throws Exception {
        broker.createTopic("idempotent", 1, Map.of());
        try (WireClient client = connect()) {
            ProduceResponseData.PartitionProduceResponse first = produce(client, (short) 12, "idempotent", 0, (short) -1,
                    idempotent(7_000, (short) 0, 0, 3));
            assertEquals(Errors.NONE.code(), first.errorCode());
            assertEquals(0, first.baseOffset());
            produce(client, (short) 12, "idempotent", 0, (short) -1, idempotent(9_000, (short) 0, 0, 2));

            ProduceResponseData.PartitionProduceResponse retry = produce(client, (short) 12, "idempotent", 0,
                    (short) -1, idempotent(7_000, (short) 0, 0, 3));
            assertEquals(Errors.NONE.code(), retry.errorCode(), "a duplicate is answered as a success...");
            assertEquals(0, retry.baseOffset(), "...with the original offset");
            assertEquals(5, logEnd("idempotent"), "and nothing written");

            assertEquals(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code(), produce(client, (short) 12, "idempotent", 0,
                    (short) -1, idempotent(7_000, (short) 0, 5, 1)).errorCode(), "a gap in the sequence");
            assertEquals(Errors.UNKNOWN_PRODUCER_ID.code(), produce(client, (short) 12, "idempotent", 0,
                    (short) -1, idempotent(8_000, (short) 0, 4, 1)).errorCode(), "no state for this producer");
            assertEquals(Errors.NONE.code(), produce(client, (short) 12, "idempotent", 0, (short) -1,
                    idempotent(7_000, (short) 1, 0, 1)).errorCode(), "a new epoch starts at sequence 0");
            assertEquals(Errors.INVALID_PRODUCER_EPOCH.code(), produce(client, (short) 12, "idempotent", 0,
                    (short) -1, idempotent(7_000, (short) 0, 3, 1)).errorCode(), "the old epoch is fenced");
            assertEquals(6, logEnd("idempotent"));
        }
        assertStillServing();
    }

    @Test
    void logAppendTimeTopicsStampTheBrokersTime() throws Exception {
        UUID topicId = broker.createTopic("stamped", 1, Map.of("message.timestamp.type", "LogAppendTime"));
        long before = System.currentTimeMillis();
        try (WireClient client = connect()) {
            ProduceResponseData.PartitionProduceResponse response = produce(client, (short) 12, "stamped", 0,
                    (short) 1, records(2, "t"));
            assertEquals(Errors.NONE.code(), response.errorCode());
            assertTrue(response.logAppendTimeMs() >= before, "the append time is answered");
            FetchResponseData.PartitionData fetched = fetch(client, (short) 17, fetchRequest("stamped", topicId, 0, 0, -1))
                    .responses().get(0).partitions().get(0);
            for (RecordBatch batch : ((MemoryRecords) fetched.records()).batches()) {
                batch.ensureValid();
                assertEquals(org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME, batch.timestampType());
                assertEquals(response.logAppendTimeMs(), batch.maxTimestamp());
            }
        }
    }

    @Test
    void timestampsOutOfBoundsAreRefusedNamingTheRecords() throws Exception {
        broker.createTopic("bounded", 1, Map.of("message.timestamp.before.max.ms", "60000"));
        long now = System.currentTimeMillis();
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE,
                new SimpleRecord(now, "fresh".getBytes(StandardCharsets.UTF_8), null),
                new SimpleRecord(now - 3_600_000L, "stale".getBytes(StandardCharsets.UTF_8), null));
        try (WireClient client = connect()) {
            ProduceResponseData.PartitionProduceResponse response = produce(client, (short) 12, "bounded", 0,
                    (short) 1, records);
            assertEquals(Errors.INVALID_TIMESTAMP.code(), response.errorCode());
            assertEquals(1, response.recordErrors().size());
            assertEquals(1, response.recordErrors().get(0).batchIndex(), "the stale record is named");
        }
        assertEquals(0, logEnd("bounded"));
        assertStillServing();
    }

    @Test
    void theFirstBatchIsSentWholeWhateverTheByteLimitsAndTheLimitsHoldAfterIt() throws Exception {
        UUID topicId = broker.createTopic("limits", 2, Map.of());
        try (WireClient client = connect()) {
            for (int partition = 0; partition < 2; partition++) {
                for (int batch = 0; batch < 3; batch++) {
                    assertEquals(Errors.NONE.code(), produce(client, (short) 12, "limits", partition, (short) 1,
                            records(3, "p" + partition + "b" + batch)).errorCode());
                }
            }
            FetchRequestData tiny = new FetchRequestData().setMaxWaitMs(0).setMinBytes(1).setMaxBytes(1)
                    .setSessionId(0).setSessionEpoch(-1);
            FetchRequestData.FetchTopic topic = new FetchRequestData.FetchTopic()
                    .setTopicId(new Uuid(topicId.getMostSignificantBits(), topicId.getLeastSignificantBits()));
            for (int partition = 0; partition < 2; partition++) {
                topic.partitions().add(new FetchRequestData.FetchPartition().setPartition(partition).setFetchOffset(0)
                        .setPartitionMaxBytes(1).setCurrentLeaderEpoch(-1));
            }
            tiny.topics().add(topic);
            List<FetchResponseData.PartitionData> partitions = fetch(client, (short) 17, tiny).responses().get(0)
                    .partitions();
            assertEquals(List.of(0L, 1L, 2L), offsetsOf(partitions.get(0)), "KIP-74: the first batch, whole");
            assertEquals(List.of(), offsetsOf(partitions.get(1)), "max_bytes is used up");
            assertEquals(9, partitions.get(1).highWatermark());
        }
    }

    @Test
    void requestsForAPartitionLedElsewhereNameTheLeaderAndHowToReachIt() throws Exception {
        UUID topicId = broker.createTopic("moved", UUID.randomUUID(), 1, Map.of(), List.of(1, 2), List.of(1, 2));
        broker.registerBroker(2, 19_092);
        broker.moveLeader(topicId, 0, 2);
        try (WireClient client = connect()) {
            int id = client.send(ApiKeys.PRODUCE, (short) 12, produceRequest("moved", 0, (short) 1, records(1, "m")));
            ProduceResponseData produced = new ProduceResponseData(client.receive(ApiKeys.PRODUCE, (short) 12, id),
                    (short) 12);
            ProduceResponseData.PartitionProduceResponse partition =
                    produced.responses().iterator().next().partitionResponses().get(0);
            assertEquals(Errors.NOT_LEADER_OR_FOLLOWER.code(), partition.errorCode());
            assertEquals(2, partition.currentLeader().leaderId());
            assertEquals(1, partition.currentLeader().leaderEpoch());
            assertEquals(19_092, produced.nodeEndpoints().find(2).port());

            FetchResponseData fetched = fetch(client, (short) 17, fetchRequest("moved", topicId, 0, 0, -1));
            FetchResponseData.PartitionData read = fetched.responses().get(0).partitions().get(0);
            assertEquals(Errors.NOT_LEADER_OR_FOLLOWER.code(), read.errorCode());
            assertEquals(2, read.currentLeader().leaderId());
            assertEquals(1, read.currentLeader().leaderEpoch());
            assertEquals(19_092, fetched.nodeEndpoints().find(2).port());
        }
    }
}
