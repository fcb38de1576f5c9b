package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kraft.broker.protocol.messages.ApiMessages;
import io.kraft.broker.protocol.schema.MalformedMessageException;
import io.kraft.broker.protocol.schema.MessageReader;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.protocol.schema.Varints;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.junit.jupiter.api.Test;

/**
 * Hostile and broken input: truncation at every byte, negative lengths, huge counts, bad tagged
 * field sizes, random corruption. Every case ends in the specific exception, never an unchecked
 * surprise (BufferUnderflowException, OutOfMemoryError, IndexOutOfBounds...).
 * Replay the fuzz with -Dkraft.seed=SEED.
 */
class MalformedInputTest {
    private static final long SEED = Long.getLong("kraft.seed", System.nanoTime());
    private final ApiVersionsTable table = ApiVersionsTable.allDeclared();

    @Test
    void everyTruncationOfEveryBodyIsMalformed() {
        Random random = new Random(SEED);
        for (ApiKey api : ApiMessages.declared()) {
            for (boolean request : new boolean[] {true, false}) {
                MessageSchema schema = request ? ApiMessages.requestSchema(api) : ApiMessages.responseSchema(api);
                for (short v : new short[] {api.acceptedVersions().lowest(), api.acceptedVersions().highest()}) {
                    ByteBuffer full = KafkaOracle.write(KafkaOracle.randomMessage(api, request, v, random), v);
                    for (int length = 0; length < full.remaining(); length++) {
                        ByteBuffer prefix = full.duplicate().limit(length);
                        final int cut = length;
                        assertThrows(MalformedMessageException.class, () -> MessageReader.read(schema, v, prefix),
                                () -> schema.name() + " v" + v + " cut at " + cut + " of " + full.remaining() + ", seed " + SEED);
                    }
                }
            }
        }
    }

    @Test
    void truncatedRequestFrameIsAMalformedRequest() {
        ByteBuffer frame = RequestFrameTest.kafkaFrame(ApiKey.FETCH, (short) 17, 3, "consumer",
                KafkaOracle.randomMessage(ApiKey.FETCH, true, (short) 17, new Random(SEED)));
        for (int length = 8; length < frame.remaining(); length++) {
            ByteBuffer prefix = frame.duplicate().limit(length);
            MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> RequestFrame.parse(prefix, table));
            assertEquals(3, e.correlationId());
            assertEquals(ApiKey.FETCH.id(), e.apiKey());
        }
    }

    @Test
    void randomCorruptionNeverEscapesAsAnUncheckedSurprise() {
        Random random = new Random(SEED);
        for (ApiKey api : ApiMessages.declared()) {
            for (short v = api.acceptedVersions().lowest(); v <= api.acceptedVersions().highest(); v++) {
                ByteBuffer frame = RequestFrameTest.kafkaFrame(api, v, 1, "fuzz",
                        KafkaOracle.randomMessage(api, true, v, random));
                for (int i = 0; i < 20; i++) {
                    ByteBuffer corrupt = ByteBuffer.allocate(frame.remaining()).put(frame.duplicate()).flip();
                    int flips = 1 + random.nextInt(3);
                    for (int f = 0; f < flips; f++) {
                        int at = 4 + random.nextInt(corrupt.remaining() - 4); // keep the key and version
                        corrupt.put(at, (byte) random.nextInt(256));
                    }
                    try {
                        RequestFrame.parse(corrupt, table);
                    } catch (RequestParseException expected) {
                        // malformed or, if the corruption hit the header, still a specific kind
                    } catch (RuntimeException | Error e) {
                        fail(api.apiName() + " v" + v + " corruption escaped as " + e + ", seed " + SEED, e);
                    }
                }
            }
        }
    }

    @Test
    void negativeLengthsAreMalformed() {
        MessageSchema metadata = ApiMessages.requestSchema(ApiKey.METADATA);
        // v0: topics is a non-nullable classic array; -1 is null, which v0 does not allow
        assertMalformed(metadata, 0, ByteBuffer.allocate(4).putInt(-1), "not nullable");
        // v1: nullable, so -1 is fine but -2 is not a length
        assertEquals(null, MessageReader.read(metadata, (short) 1, ByteBuffer.allocate(4).putInt(-1).flip()).getStructs("topics"));
        assertMalformed(metadata, 1, ByteBuffer.allocate(4).putInt(-2), "negative length");
        // a classic string of length -5 inside a topic
        assertMalformed(metadata, 1, ByteBuffer.allocate(6).putInt(1).putShort((short) -5), "negative length");
        // bytes: SyncGroup v0 assignment with length -3
        MessageSchema sync = ApiMessages.responseSchema(ApiKey.SYNC_GROUP);
        assertMalformed(sync, 0, ByteBuffer.allocate(6).putShort((short) 0).putInt(-3), "negative length");
        // compact: uvarint 0 means null, which a non-nullable compact string does not allow
        MessageSchema apiVersions = ApiMessages.requestSchema(ApiKey.API_VERSIONS);
        assertMalformed(apiVersions, 3, ByteBuffer.allocate(1).put((byte) 0), "not nullable");
    }

    @Test
    void hugeArrayCountsAreRejectedWithoutAllocating() {
        MessageSchema metadata = ApiMessages.requestSchema(ApiKey.METADATA);
        assertMalformed(metadata, 1, ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(0), "elements");
        ByteBuffer compact = ByteBuffer.allocate(8);
        Varints.writeUnsignedVarint(Integer.MAX_VALUE, compact);
        assertMalformed(metadata, 12, compact, "elements");
        ByteBuffer overflow = ByteBuffer.allocate(8);
        Varints.writeUnsignedVarint(-1, overflow); // 2^32-1: minus one is a negative length
        assertMalformed(metadata, 12, overflow, "negative length");
        // a huge string length in a classic string
        assertMalformed(metadata, 1, ByteBuffer.allocate(8).putInt(1).putShort(Short.MAX_VALUE), "claims");
        // an over-long varint
        assertMalformed(metadata, 12, ByteBuffer.wrap(new byte[] {-1, -1, -1, -1, -1, -1}).position(6), "varint");
    }

    @Test
    void badTaggedFieldSizesAreMalformed() {
        MessageSchema fetch = ApiMessages.requestSchema(ApiKey.FETCH);
        short v = 15;
        // cluster_id (tag 0) says 50 bytes but the message ends first
        ByteBuffer tooLong = fetchV15WithTaggedSection(new byte[] {1, 0, 50, 4, 'a', 'b', 'c'});
        assertMalformed(fetch, v, tooLong, "declares 50 bytes");
        // replica_state (tag 1) needs 12+1 bytes but declares 2
        ByteBuffer tooShort = fetchV15WithTaggedSection(new byte[] {1, 1, 2, 0, 0});
        assertMalformed(fetch, v, tooShort, "Truncated field ReplicaState");
        // cluster_id declares 5 bytes but its value ("ab" = length byte + 2) takes only 3
        ByteBuffer slack = fetchV15WithTaggedSection(new byte[] {1, 0, 5, 3, 'a', 'b', 0, 0});
        assertMalformed(fetch, v, slack, "takes 3");
        // a tagged-field count larger than the bytes left
        ByteBuffer count = fetchV15WithTaggedSection(new byte[] {100, 0});
        assertMalformed(fetch, v, count, "tagged fields");
        // an unknown tag of plausible size is skipped
        ByteBuffer unknown = fetchV15WithTaggedSection(new byte[] {1, 9, 2, 7, 7});
        Struct parsed = MessageReader.read(fetch, v, unknown.flip());
        assertEquals(0, unknown.remaining());
        assertEquals(null, parsed.getString("cluster_id"));
    }

    /** A Fetch v15 request with no topics whose top-level tagged section is {@code tagged}. */
    private static ByteBuffer fetchV15WithTaggedSection(byte[] tagged) {
        ByteBuffer kafka = KafkaOracle.write(new FetchRequestData().setMaxWaitMs(500).setMinBytes(1), (short) 15);
        ByteBuffer out = ByteBuffer.allocate(kafka.remaining() - 1 + tagged.length);
        out.put(kafka.duplicate().limit(kafka.limit() - 1)); // drop Kafka's empty tagged section
        out.put(tagged);
        return out;
    }

    @Test
    void nonNullableCompactStringSentAsNullIsMalformed() {
        ApiMessage ok = new MetadataRequestData().setTopics(java.util.List.of(new MetadataRequestData.MetadataRequestTopic().setName(null)));
        ByteBuffer bytes = KafkaOracle.write(ok, (short) 12);
        Struct parsed = MessageReader.read(ApiMessages.requestSchema(ApiKey.METADATA), (short) 12, bytes.duplicate());
        assertEquals(null, parsed.getStructs("topics").get(0).getString("name"), "nullable at v12");
        // the same bytes at v9: the name is not nullable there (and there is no topic id)
        ByteBuffer v9 = ByteBuffer.allocate(4).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        assertMalformed(ApiMessages.requestSchema(ApiKey.METADATA), 9, v9, "not nullable");
    }

    private static void assertMalformed(MessageSchema schema, int version, ByteBuffer written, String messagePart) {
        ByteBuffer in = written.position() == 0 ? written : written.flip();
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> MessageReader.read(schema, (short) version, in));
        assertTrue(e.getMessage().contains(messagePart), "message '" + e.getMessage() + "' should mention '" + messagePart + "'");
    }
}
