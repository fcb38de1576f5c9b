package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.codec.ExternalRecords;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.FetchResponse;
import io.kraft.broker.protocol.message.ProduceRequest;
import io.kraft.generator.FieldSpec;
import io.kraft.generator.MessageSpec;
import io.kraft.generator.StructSpec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Records are read as views of the input's memory and written as external regions that splice into Kafka's bytes. */
class GeneratedZeroCopyRecordsTest {
    private static final int MESSAGES = 10;

    /** Stands in for a log segment file region. */
    private record Region(byte[] bytes) implements ExternalRecords {
        @Override
        public int sizeInBytes() {
            return bytes.length;
        }
    }

    @TestFactory
    Stream<DynamicTest> recordsReadFromABufferAreViewsOfItsMemory() {
        return ProtocolCase.each(c -> Specs.hasRecords(c.spec()), c -> {
            Random random = c.random("recordsAreViews");
            int nonEmpty = 0;
            // Random messages may all carry null or empty records (some seeds did): go on until one does not.
            for (int i = 0; i < MESSAGES || nonEmpty == 0 && i < 20 * MESSAGES; i++) {
                ByteBuffer kafkaBytes = KafkaOracle.write(KafkaOracle.randomMessage(c, random), c.version());
                for (boolean direct : new boolean[] {false, true}) {
                    ByteBuffer input = (direct ? ByteBuffer.allocateDirect(kafkaBytes.remaining())
                            : ByteBuffer.allocate(kafkaBytes.remaining())).put(kafkaBytes.duplicate()).flip();
                    ApiMessage ours = c.read(input.duplicate());
                    List<ByteBuffer> records = new ArrayList<>();
                    forEachRecords(c.spec(), c.spec().body(), ours, (owner, f) -> {
                        Object value = SpecFields.get(owner, f);
                        if (value != null) {
                            records.add((ByteBuffer) value);
                        }
                    });
                    List<byte[]> before = records.stream().map(GeneratedZeroCopyRecordsTest::bytes).toList();
                    for (int at = 0; at < input.limit(); at++) {
                        input.put(at, (byte) ~input.get(at)); // every byte of the input, inverted in place
                    }
                    for (int r = 0; r < records.size(); r++) {
                        ByteBuffer view = records.get(r);
                        if (!direct) {
                            assertSame(input.array(), view.array(), () -> c.where() + " copied its records");
                        }
                        byte[] now = bytes(view);
                        for (int b = 0; b < now.length; b++) {
                            assertEquals((byte) ~before.get(r)[b], now[b], c.where() + " records do not share the input's memory");
                        }
                        nonEmpty += now.length > 0 ? 1 : 0;
                    }
                }
            }
            assertTrue(nonEmpty > 0, c.where() + " never read non-empty records");
        });
    }

    @TestFactory
    Stream<DynamicTest> externalRecordsAreLeftOutAtOffsetsThatSpliceToKafkasBytes() {
        return ProtocolCase.each(c -> Specs.hasRecords(c.spec()), c -> {
            Random random = c.random("externalRecords");
            short v = c.version();
            int regionsSeen = 0;
            for (int i = 0; i < MESSAGES; i++) {
                ApiMessage ours = OurRandom.message(c, random);
                ByteBuffer inlineBytes = ours.toBuffer(v);
                // the same message with every records value held as an external region instead
                List<Region> regions = new ArrayList<>();
                forEachRecords(c.spec(), c.spec().body(), ours, (owner, f) -> {
                    ByteBuffer value = (ByteBuffer) SpecFields.get(owner, f);
                    if (value != null) {
                        Region region = new Region(bytes(value));
                        regions.add(region);
                        SpecFields.set(owner, f, region);
                    }
                });
                long external = regions.stream().mapToLong(Region::sizeInBytes).sum();
                assertEquals(external, ours.externalRecordsBytes(v), c::where);
                assertEquals(inlineBytes.remaining(), ours.size(v), () -> c.where() + " sizes external records differently");

                ByteBuffer out = ByteBuffer.allocate((int) (ours.size(v) - external));
                List<Integer> offsets = new ArrayList<>();
                List<ExternalRecords> reported = new ArrayList<>();
                ours.write(out, v, (offset, records) -> {
                    offsets.add(offset);
                    reported.add(records);
                });
                assertEquals(0, out.remaining(), () -> c.where() + " the inline part is not the size minus the regions");
                assertEquals(regions, reported, () -> c.where() + " regions not reported once each, in wire order");
                ByteBuffer spliced = splice(out.array(), offsets, regions);
                assertEquals(inlineBytes, spliced, () -> c.where() + " spliced bytes differ from the inline ones");
                assertEquals(KafkaOracle.read(c, inlineBytes), KafkaOracle.read(c, spliced), c::where);
                regionsSeen += regions.size();
            }
            assertTrue(regionsSeen > 0, c.where() + " never held records");
        });
    }

    @Test
    void fetchResponseFramesWithExternalRecordsSpliceToKafkasFrames() {
        byte[][] payloads = {{1, 2, 3, 4, 5}, {}, {9, 9, 9}};
        for (short v = ApiKey.FETCH.acceptedVersions().lowest(); v <= ApiKey.FETCH.acceptedVersions().highest(); v++) {
            FetchResponse ours = new FetchResponse();
            FetchResponse.FetchableTopicResponse topic = new FetchResponse.FetchableTopicResponse()
                    .setTopic("events").setTopicId(new UUID(7, 8));
            ours.responses().add(topic);
            FetchResponseData kafka = new FetchResponseData();
            FetchResponseData.FetchableTopicResponse kafkaTopic = new FetchResponseData.FetchableTopicResponse()
                    .setTopic(v <= 12 ? "events" : "").setTopicId(v >= 13 ? new Uuid(7, 8) : Uuid.ZERO_UUID);
            kafka.responses().add(kafkaTopic);
            List<Region> regions = new ArrayList<>();
            for (int p = 0; p < payloads.length; p++) {
                regions.add(new Region(payloads[p]));
                topic.partitions().add(new FetchResponse.PartitionData().setPartitionIndex(p).setHighWatermark(100L + p)
                        .setExternalRecords(regions.get(p)));
                kafkaTopic.partitions().add(new FetchResponseData.PartitionData().setPartitionIndex(p)
                        .setHighWatermark(100L + p).setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(payloads[p]))));
            }
            int frameSize = ResponseFrame.frameSize(ApiKey.FETCH, v, ours);
            ByteBuffer out = ByteBuffer.allocate(frameSize - 8);
            List<Integer> offsets = new ArrayList<>();
            ResponseFrame.write(ApiKey.FETCH, v, 42, ours, out, (offset, records) -> offsets.add(offset));
            assertEquals(0, out.remaining(), "the inline part is exactly the frame size minus the regions");
            ByteBuffer spliced = splice(out.array(), offsets, regions);

            short headerVersion = ApiKeys.FETCH.responseHeaderVersion(v);
            ByteBuffer header = KafkaOracle.write(new ResponseHeaderData().setCorrelationId(42), headerVersion);
            ByteBuffer body = KafkaOracle.write(kafka, v);
            ByteBuffer expected = ByteBuffer.allocate(4 + header.remaining() + body.remaining())
                    .putInt(header.remaining() + body.remaining()).put(header).put(body).flip();
            assertEquals(expected, spliced, "Fetch response frame v" + v);
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
    void producedRecordsAreASliceOfTheRequestFrameWhereTheBatchWasSent() throws Exception {
        byte[] batch = {10, 20, 30, 40};
        ProduceRequestData produce = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30000);
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData().setName("t");
        topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0)
                .setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(batch))));
        produce.topicData().add(topic);
        for (short v = ApiKey.PRODUCE.acceptedVersions().lowest(); v <= ApiKey.PRODUCE.acceptedVersions().highest(); v++) {
            short headerVersion = ApiKeys.PRODUCE.requestHeaderVersion(v);
            ByteBuffer header = KafkaOracle.write(new RequestHeaderData().setRequestApiKey(ApiKey.PRODUCE.id())
                    .setRequestApiVersion(v).setCorrelationId(1).setClientId("p"), headerVersion);
            ByteBuffer body = KafkaOracle.write(produce, v);
            ByteBuffer frame = ByteBuffer.allocate(header.remaining() + body.remaining()).put(header).put(body).flip();
            ApiRequest<ApiMessage> request = RequestFrame.parse(frame, ApiVersionsTable.allDeclared());
            ByteBuffer records = ((ProduceRequest) request.body()).topicData().get(0).partitionData().get(0).records();
            assertEquals(ByteBuffer.wrap(batch), records);
            assertSame(frame.array(), records.array(), "no copy of the record data");
            int trailingTaggedSections = ApiKey.PRODUCE.isFlexible(v) ? 3 : 0; // partition, topic and request
            assertEquals(frame.limit() - trailingTaggedSections - batch.length, records.arrayOffset() + records.position(),
                    "v" + v + ": the slice sits where the batch was sent");
        }
    }

    /** Calls {@code action} with each struct object holding a records field, and that field, all the way down. */
    private static void forEachRecords(MessageSpec m, StructSpec s, Object struct, BiConsumer<Object, FieldSpec> action) {
        for (FieldSpec f : s.fields()) {
            if (Specs.isRecords(f)) {
                action.accept(struct, f);
                continue;
            }
            StructSpec nested = Specs.structOf(m, f);
            Object value = nested == null ? null : SpecFields.get(struct, f);
            if (value instanceof Collection<?> elements) {
                for (Object element : elements) {
                    forEachRecords(m, nested, element, action);
                }
            } else if (value != null) {
                forEachRecords(m, nested, value, action);
            }
        }
    }

    /** The inline bytes with each region's bytes inserted at its reported offset. */
    private static ByteBuffer splice(byte[] inline, List<Integer> offsets, List<Region> regions) {
        int total = inline.length + regions.stream().mapToInt(Region::sizeInBytes).sum();
        ByteBuffer spliced = ByteBuffer.allocate(total);
        int from = 0;
        for (int i = 0; i < offsets.size(); i++) {
            spliced.put(inline, from, offsets.get(i) - from).put(regions.get(i).bytes());
            from = offsets.get(i);
        }
        return spliced.put(inline, from, inline.length - from).flip();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }
}
