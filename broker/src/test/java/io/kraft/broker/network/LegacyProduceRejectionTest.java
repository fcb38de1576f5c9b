package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kraft.storage.errors.Errors;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.jupiter.api.Test;

/**
 * Produce v0-2 requests are answered UNSUPPORTED_VERSION for every partition in the layout of their version;
 * requests that cannot be read get no answer (the connection is closed).
 */
class LegacyProduceRejectionTest {
    private static final byte[] RECORDS = {1, 2, 3, 4, 5};

    /** A request frame without its size prefix: header v1, acks, timeout, topics "a" [0, 7] and "bb" [2]. */
    private static ByteBuffer request(short version) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeShort(0);
        out.writeShort(version);
        out.writeInt(77);
        out.writeShort(-1); // null client id
        out.writeShort(1);
        out.writeInt(5_000);
        out.writeInt(2);
        writeTopic(out, "a", 0, 7);
        writeTopic(out, "bb", 2);
        return ByteBuffer.wrap(bytes.toByteArray());
    }

    private static void writeTopic(DataOutputStream out, String name, int... partitions) throws IOException {
        out.writeShort(name.length());
        out.write(name.getBytes(StandardCharsets.UTF_8));
        out.writeInt(partitions.length);
        for (int partition : partitions) {
            out.writeInt(partition);
            if (partition == 7) {
                out.writeInt(-1); // a null message set
            } else {
                out.writeInt(RECORDS.length);
                out.write(RECORDS);
            }
        }
    }

    /** The expected response frame, written field by field for {@code version}. */
    private static byte[] expected(short version) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeInt(77);
        out.writeInt(2);
        for (Object[] topic : List.of(new Object[] {"a", new int[] {0, 7}}, new Object[] {"bb", new int[] {2}})) {
            out.writeShort(((String) topic[0]).length());
            out.write(((String) topic[0]).getBytes(StandardCharsets.UTF_8));
            int[] partitions = (int[]) topic[1];
            out.writeInt(partitions.length);
            for (int partition : partitions) {
                out.writeInt(partition);
                out.writeShort(Errors.UNSUPPORTED_VERSION.code());
                out.writeLong(-1L);
                if (version >= 2) {
                    out.writeLong(-1L);
                }
            }
        }
        if (version >= 1) {
            out.writeInt(0);
        }
        byte[] frame = body.toByteArray();
        return ByteBuffer.allocate(4 + frame.length).putInt(frame.length).put(frame).array();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] array = new byte[buffer.remaining()];
        buffer.duplicate().get(array);
        return array;
    }

    @Test
    void everyPartitionIsRefusedInTheLayoutOfTheRequestsVersion() throws Exception {
        for (short version = 0; version <= 2; version++) {
            ByteBuffer response = LegacyProduceRejection.responseFrame(request(version), version);
            assertNotNull(response, "v" + version);
            assertArrayEquals(expected(version), bytes(response), "v" + version);
        }
    }

    @Test
    void theV2AnswerReadsAsKafkaClientsReadV3WhichHasTheSameLayout() throws Exception {
        ByteBuffer response = LegacyProduceRejection.responseFrame(request((short) 2), (short) 2);
        response.position(4 + 4); // size, correlation id
        ProduceResponseData data = new ProduceResponseData(new ByteBufferAccessor(response), (short) 3);
        assertEquals(List.of("a", "bb"), data.responses().stream().map(ProduceResponseData.TopicProduceResponse::name)
                .toList());
        ProduceResponseData.PartitionProduceResponse seven = data.responses().iterator().next().partitionResponses()
                .get(1);
        assertEquals(7, seven.index());
        assertEquals(Errors.UNSUPPORTED_VERSION.code(), seven.errorCode());
        assertEquals(-1L, seven.baseOffset());
        assertEquals(-1L, seven.logAppendTimeMs());
        assertEquals(0, response.remaining());
    }

    @Test
    void requestsThatCannotBeReadAreNotAnswered() throws Exception {
        byte[] whole = bytes(request((short) 1));
        for (int cut : new int[] {8, 12, 20, whole.length - 1}) {
            assertNull(LegacyProduceRejection.responseFrame(ByteBuffer.wrap(Arrays.copyOf(whole, cut)), (short) 1),
                    "cut at " + cut);
        }
        ByteBuffer negativeTopics = request((short) 1);
        negativeTopics.putInt(10 + 2 + 4, -1);
        assertNull(LegacyProduceRejection.responseFrame(negativeTopics, (short) 1));
        ByteBuffer notUtf8 = request((short) 1);
        notUtf8.put(10 + 2 + 4 + 4 + 2, (byte) 0xFF);
        assertNull(LegacyProduceRejection.responseFrame(notUtf8, (short) 1));
    }
}
