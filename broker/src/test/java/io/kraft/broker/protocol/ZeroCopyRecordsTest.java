package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.broker.protocol.messages.ApiMessages;
import io.kraft.broker.protocol.schema.ExternalRecords;
import io.kraft.broker.protocol.schema.Field;
import io.kraft.broker.protocol.schema.MessageWriter;
import io.kraft.broker.protocol.schema.Struct;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.Test;

/** Records travel without copies: parsed as slices of the frame, written as external regions spliced in by the transport. */
class ZeroCopyRecordsTest {

    /** Stands in for a log segment file region. */
    private record Region(byte[] bytes) implements ExternalRecords {
        @Override
        public int sizeInBytes() {
            return bytes.length;
        }
    }

    @Test
    void fetchResponseWithExternalRecordsSplicesToKafkasBytes() {
        for (short version : new short[] {4, 11, 12, 16, 17}) {
            byte[][] payloads = {{1, 2, 3, 4, 5}, {}, {9, 9, 9}};
            Struct body = ApiMessages.responseSchema(ApiKey.FETCH).newStruct();
            Field responses = body.field("responses");
            Struct topic = body.addStruct(responses);
            topic.set("topic", "events");
            topic.set("topic_id", new java.util.UUID(7, 8));
            FetchResponseData kafka = new FetchResponseData().setSessionId(0);
            FetchResponseData.FetchableTopicResponse kafkaTopic = new FetchResponseData.FetchableTopicResponse()
                    .setTopic(version <= 12 ? "events" : "").setTopicId(version >= 13
                            ? new org.apache.kafka.common.Uuid(7, 8) : org.apache.kafka.common.Uuid.ZERO_UUID);
            kafka.responses().add(kafkaTopic);
            for (int p = 0; p < payloads.length; p++) {
                Struct partition = topic.addStruct("partitions");
                partition.set("partition_index", p);
                partition.set("high_watermark", 100L + p);
                partition.set("aborted_transactions", List.of());
                partition.set("records", new Region(payloads[p]));
                kafkaTopic.partitions().add(new FetchResponseData.PartitionData().setPartitionIndex(p)
                        .setHighWatermark(100L + p).setAbortedTransactions(new ArrayList<>())
                        .setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(payloads[p]))));
            }
            int frameSize = ResponseFrame.frameSize(ApiKey.FETCH, version, body);
            int external = 5 + 0 + 3;
            ByteBuffer inline = ByteBuffer.allocate(frameSize - external);
            List<Integer> offsets = new ArrayList<>();
            List<Region> regions = new ArrayList<>();
            ResponseFrame.write(ApiKey.FETCH, version, 42, body, inline, (offset, records) -> {
                offsets.add(offset);
                regions.add((Region) records);
            });
            assertEquals(0, inline.remaining(), "the inline part is exactly frame size minus the regions");
            assertEquals(List.of(0, 1, 2).size(), regions.size());

            ByteBuffer spliced = ByteBuffer.allocate(frameSize);
            int from = 0;
            for (int i = 0; i < offsets.size(); i++) {
                spliced.put(inline.array(), from, offsets.get(i) - from).put(regions.get(i).bytes());
                from = offsets.get(i);
            }
            spliced.put(inline.array(), from, inline.capacity() - from).flip();

            assertEquals(frameSize - 4, spliced.getInt());
            assertEquals(42, spliced.getInt());
            if (version >= 12) {
                assertEquals(0, spliced.get(), "empty header tagged fields");
            }
            assertEquals(kafka, new FetchResponseData(new ByteBufferAccessor(spliced), version), "v" + version);
        }
    }

    @Test
    void externalRecordsNeedASink() {
        Struct body = ApiMessages.responseSchema(ApiKey.FETCH).newStruct();
        body.addStruct("responses").addStruct("partitions").set("records", new Region(new byte[3]));
        assertThrows(IllegalStateException.class,
                () -> MessageWriter.toBuffer(ApiMessages.responseSchema(ApiKey.FETCH), body, (short) 17));
    }

    @Test
    void producedRecordsAreASliceOfTheRequestFrame() throws Exception {
        byte[] batch = {10, 20, 30, 40};
        ProduceRequestData produce = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30000);
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData().setName("t");
        topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0)
                .setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(batch))));
        produce.topicData().add(topic);
        ByteBuffer frame = RequestFrameTest.kafkaFrame(ApiKey.PRODUCE, (short) 12, 1, "p", produce);
        ParsedRequest request = RequestFrame.parse(frame, ApiVersionsTable.allDeclared());
        Struct partition = request.body().getStructs("topic_data").get(0).getStructs("partition_data").get(0);
        ByteBuffer records = partition.getRecords(partition.field("records"));
        assertEquals(ByteBuffer.wrap(batch), records);
        assertSame(frame.array(), records.array(), "no copy of the record data");
    }
}
