package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.message.FetchResponse;
import io.kraft.storage.log.FileSlice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.FileRegion;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fetch response leaves the broker as header and struct bytes with the segment file's bytes as file regions, or,
 * on a TLS connection, as chunked reads of the file.
 */
class ZeroCopyFetchResponseTest {
    @TempDir
    Path dir;

    @Test
    void recordDataIsSentAsFileRegionsBetweenTheResponseBytes() throws Exception {
        MemoryRecords first = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("a".getBytes(), "1".getBytes()));
        MemoryRecords second = MemoryRecords.withRecords(5L, Compression.NONE,
                new SimpleRecord("b".getBytes(), "2".getBytes()), new SimpleRecord("c".getBytes(), "3".getBytes()));
        Path segment = dir.resolve("00000000000000000000.log");
        Files.write(segment, concat(new byte[7], bytes(first), bytes(second)));
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ)) {
            int firstSize = first.sizeInBytes();
            FileSlice firstSlice = new FileSlice(channel, 7, firstSize);
            FileSlice secondSlice = new FileSlice(channel, 7 + firstSize, second.sizeInBytes());
            for (short version : new short[] {4, 17}) {
                FetchResponse body = new FetchResponse();
                FetchResponse.FetchableTopicResponse topic = new FetchResponse.FetchableTopicResponse()
                        .setTopic("t")
                        .setTopicId(new UUID(1, 2));
                body.responses().add(topic);
                topic.partitions().add(partition(0).setExternalRecords(new FileSliceRecords(firstSlice)));
                topic.partitions().add(partition(1).setExternalRecords(new FileSliceRecords(secondSlice)));
                OutboundResponse response = OutboundResponse.frame(UnpooledByteBufAllocator.DEFAULT, ApiKey.FETCH,
                        version, 9, body);
                // v4 ends with the last records; flexible versions end with tagged fields after them.
                assertEquals(version >= 12 ? 5 : 4, response.parts().size(), "bytes, region, bytes, region[, bytes]");
                assertInstanceOf(ByteBuf.class, response.parts().get(0));
                assertInstanceOf(FileRegion.class, response.parts().get(1));
                assertInstanceOf(ByteBuf.class, response.parts().get(2));
                assertInstanceOf(FileRegion.class, response.parts().get(3));
                ByteBuffer wire = ByteBuffer.wrap(drain(response));
                assertEquals(wire.remaining() - 4, wire.getInt());
                assertEquals(9, wire.getInt());
                if (version >= 12) {
                    wire.get(); // response header tagged fields
                }
                FetchResponseData parsed = new FetchResponseData(new ByteBufferAccessor(wire), version);
                FetchResponseData.FetchableTopicResponse parsedTopic = parsed.responses().get(0);
                assertEquals(first, parsedTopic.partitions().get(0).records(), "v" + version);
                assertEquals(second, parsedTopic.partitions().get(1).records(), "v" + version);
                assertEquals(0, wire.remaining());
            }
        }
    }

    @Test
    void onTlsConnectionsRecordDataIsReadFromItsFileInChunks() throws Exception {
        byte[] large = new byte[40_000];
        new java.util.Random(7).nextBytes(large);
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("k".getBytes(), large));
        Path segment = dir.resolve("00000000000000000000.log");
        Files.write(segment, concat(new byte[3], bytes(records)));
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ)) {
            FetchResponse body = new FetchResponse();
            FetchResponse.FetchableTopicResponse topic = new FetchResponse.FetchableTopicResponse().setTopic("t")
                    .setTopicId(new UUID(1, 2));
            body.responses().add(topic);
            topic.partitions().add(partition(0).setExternalRecords(new FileSliceRecords(
                    new FileSlice(channel, 3, records.sizeInBytes()))));
            OutboundResponse response = OutboundResponse.frame(UnpooledByteBufAllocator.DEFAULT, ApiKey.FETCH,
                    (short) 17, 4, body, true);
            assertInstanceOf(SliceChunkedInput.class, response.parts().get(1));
            ByteBuffer wire = ByteBuffer.wrap(drain(response));
            assertEquals(wire.remaining() - 4, wire.getInt());
            assertEquals(4, wire.getInt());
            wire.get();
            FetchResponseData parsed = new FetchResponseData(new ByteBufferAccessor(wire), (short) 17);
            assertEquals(records, parsed.responses().get(0).partitions().get(0).records());
        }
    }

    @Test
    void recordsThatAreNotFileSlicesCannotBeSent() {
        FetchResponse body = new FetchResponse();
        FetchResponse.FetchableTopicResponse topic = new FetchResponse.FetchableTopicResponse();
        topic.partitions().add(partition(0).setExternalRecords(() -> 3));
        body.responses().add(topic);
        assertThrows(IllegalStateException.class,
                () -> OutboundResponse.frame(UnpooledByteBufAllocator.DEFAULT, ApiKey.FETCH, (short) 17, 1, body));
    }

    private static FetchResponse.PartitionData partition(int index) {
        return new FetchResponse.PartitionData().setPartitionIndex(index).setHighWatermark(10L);
    }

    /** Writes the parts as the socket would receive them, releasing them. */
    private static byte[] drain(OutboundResponse response) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WritableByteChannel sink = Channels.newChannel(out);
        for (Object part : response.parts()) {
            if (part instanceof ByteBuf buf) {
                byte[] chunk = new byte[buf.readableBytes()];
                buf.readBytes(chunk);
                out.write(chunk);
                buf.release();
            } else if (part instanceof SliceChunkedInput input) {
                int chunks = 0;
                while (!input.isEndOfInput()) {
                    ByteBuf chunk = input.readChunk(UnpooledByteBufAllocator.DEFAULT);
                    assertTrue(chunk.readableBytes() <= SliceChunkedInput.CHUNK_BYTES);
                    byte[] bytes = new byte[chunk.readableBytes()];
                    chunk.readBytes(bytes);
                    out.write(bytes);
                    chunk.release();
                    chunks++;
                }
                assertEquals((input.length() + SliceChunkedInput.CHUNK_BYTES - 1) / SliceChunkedInput.CHUNK_BYTES, chunks);
                input.close();
            } else {
                FileRegion region = (FileRegion) part;
                while (region.transferred() < region.count()) {
                    region.transferTo(sink, region.transferred());
                }
                assertTrue(region.release());
            }
        }
        return out.toByteArray();
    }

    private static byte[] bytes(MemoryRecords records) {
        ByteBuffer buffer = records.buffer().duplicate();
        byte[] array = new byte[buffer.remaining()];
        buffer.get(array);
        return array;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
