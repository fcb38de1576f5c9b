package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.broker.protocol.message.FetchResponse;
import io.kraft.broker.protocol.message.ProduceRequest;
import io.kraft.broker.protocol.schema.ExternalRecords;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.Test;

/** Records in generated classes travel without copies: read as slices of the input, written as external regions spliced in by the transport. */
class GeneratedZeroCopyRecordsTest {

    /** Stands in for a log segment file region. */
    private record Region(byte[] bytes) implements ExternalRecords {
        @Override
        public int sizeInBytes() {
            return bytes.length;
        }
    }

    @Test
    void fetchResponseWithExternalRecordsSplicesToKafkasBytes() {
        byte[][] payloads = {{1, 2, 3, 4, 5}, {}, {9, 9, 9}};
        for (short version = FetchResponse.LOWEST_SUPPORTED_VERSION; version <= FetchResponse.HIGHEST_SUPPORTED_VERSION; version++) {
            FetchResponse response = new FetchResponse();
            FetchResponse.FetchableTopicResponse topic = new FetchResponse.FetchableTopicResponse()
                    .setTopic("events").setTopicId(new java.util.UUID(7, 8));
            response.responses().add(topic);
            FetchResponseData kafka = new FetchResponseData();
            FetchResponseData.FetchableTopicResponse kafkaTopic = new FetchResponseData.FetchableTopicResponse()
                    .setTopic(version <= 12 ? "events" : "").setTopicId(version >= 13 ? new Uuid(7, 8) : Uuid.ZERO_UUID);
            kafka.responses().add(kafkaTopic);
            for (int p = 0; p < payloads.length; p++) {
                topic.partitions().add(new FetchResponse.PartitionData().setPartitionIndex(p).setHighWatermark(100L + p)
                        .setAbortedTransactions(new ArrayList<>()).setExternalRecords(new Region(payloads[p])));
                kafkaTopic.partitions().add(new FetchResponseData.PartitionData().setPartitionIndex(p)
                        .setHighWatermark(100L + p).setAbortedTransactions(new ArrayList<>())
                        .setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(payloads[p]))));
            }
            int size = response.size(version);
            assertEquals(5 + 0 + 3, response.externalRecordsBytes(version));
            ByteBuffer inline = ByteBuffer.allocate(size - 8);
            List<Integer> offsets = new ArrayList<>();
            List<Region> regions = new ArrayList<>();
            response.write(inline, version, (offset, records) -> {
                offsets.add(offset);
                regions.add((Region) records);
            });
            assertEquals(0, inline.remaining(), "the inline part is exactly the size minus the regions");
            assertEquals(3, regions.size());

            ByteBuffer spliced = ByteBuffer.allocate(size);
            int from = 0;
            for (int i = 0; i < offsets.size(); i++) {
                spliced.put(inline.array(), from, offsets.get(i) - from).put(regions.get(i).bytes());
                from = offsets.get(i);
            }
            spliced.put(inline.array(), from, inline.capacity() - from).flip();
            assertEquals(kafka, new FetchResponseData(new ByteBufferAccessor(spliced.duplicate()), version), "v" + version);
            assertEquals(KafkaOracle.write(kafka, version), spliced, "v" + version);
        }
    }

    @Test
    void externalRecordsNeedASink() {
        FetchResponse response = new FetchResponse();
        response.responses().add(new FetchResponse.FetchableTopicResponse());
        response.responses().get(0).partitions().add(new FetchResponse.PartitionData().setExternalRecords(new Region(new byte[3])));
        assertThrows(IllegalStateException.class, () -> response.toBuffer((short) 17));
    }

    @Test
    void aRecordsFieldHoldsBytesOrExternalRecordsNotBoth() {
        FetchResponse.PartitionData partition = new FetchResponse.PartitionData();
        assertNull(partition.records());
        Region region = new Region(new byte[] {1});
        partition.setExternalRecords(region);
        assertSame(region, partition.externalRecords());
        assertThrows(IllegalStateException.class, partition::records);
        partition.setRecords(ByteBuffer.wrap(new byte[] {2}));
        assertNull(partition.externalRecords());
        assertEquals(ByteBuffer.wrap(new byte[] {2}), partition.records());
    }

    @Test
    void producedRecordsAreASliceOfTheRequestBuffer() {
        byte[] batch = {10, 20, 30, 40};
        ProduceRequestData produce = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30000);
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData().setName("t");
        topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0)
                .setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(batch))));
        produce.topicData().add(topic);
        for (short version : new short[] {3, 8, 9, 12}) {
            ByteBuffer frame = KafkaOracle.write(produce, version);
            ProduceRequest request = ProduceRequest.parse(frame.duplicate(), version);
            ByteBuffer records = request.topicData().get(0).partitionData().get(0).records();
            assertEquals(ByteBuffer.wrap(batch), records);
            assertSame(frame.array(), records.array(), "no copy of the record data");
            int trailingTaggedSections = version >= 9 ? 3 : 0; // partition, topic and request each end with one
            assertEquals(frame.limit() - trailingTaggedSections - batch.length, records.arrayOffset(),
                    "the slice sits where the batch was sent");
        }
    }
}
