package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.protocol.message.MetadataRequest;
import io.kraft.broker.protocol.message.SyncGroupResponse;
import io.kraft.broker.protocol.schema.MalformedMessageException;
import io.kraft.broker.protocol.schema.Varints;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Hostile and broken input for the generated classes: truncation at every byte of every API and
 * version, negative lengths, huge counts, bad tagged-field sizes, random corruption. Every case ends
 * in {@link MalformedMessageException}, never an unchecked surprise (BufferUnderflowException,
 * NegativeArraySizeException, OutOfMemoryError, IndexOutOfBounds...).
 * Replay with -Dkraft.seed=SEED.
 */
class GeneratedMalformedInputTest {
    private static final long SEED = Long.getLong("kraft.seed", System.nanoTime());

    @TestFactory
    Stream<DynamicTest> everyTruncationOfEveryBodyIsMalformed() {
        return GeneratedCodecConformanceTest.cases().stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
            Random random = new Random(SEED ^ c.hashCode());
            for (int round = 0; round < 3; round++) {
                ByteBuffer full = KafkaOracle.write(KafkaOracle.randomMessage(c.api(), c.request(), c.version(), random), c.version());
                for (int length = 0; length < full.remaining(); length++) {
                    ByteBuffer prefix = full.duplicate().limit(length);
                    int cut = length;
                    expectMalformedOnly(() -> TypedBridge.parse(c.api(), c.request(), c.version(), prefix),
                            () -> c + " cut at " + cut + " of " + full.remaining() + "; seed " + SEED);
                }
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> randomCorruptionNeverEscapesAsAnUncheckedSurprise() {
        return GeneratedCodecConformanceTest.cases().stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
            Random random = new Random(SEED ^ (17L * c.hashCode()));
            ByteBuffer full = KafkaOracle.write(KafkaOracle.randomMessage(c.api(), c.request(), c.version(), random), c.version());
            if (!full.hasRemaining()) {
                return;
            }
            for (int i = 0; i < 50; i++) {
                ByteBuffer corrupt = ByteBuffer.allocate(full.remaining()).put(full.duplicate()).flip();
                int flips = 1 + random.nextInt(3);
                for (int f = 0; f < flips; f++) {
                    corrupt.put(random.nextInt(corrupt.remaining()), (byte) random.nextInt(256));
                }
                try {
                    TypedBridge.parse(c.api(), c.request(), c.version(), corrupt);
                } catch (MalformedMessageException expected) {
                    // the corruption was noticed
                } catch (RuntimeException | Error e) {
                    fail(c + " corruption escaped as " + e + "; seed " + SEED, e);
                }
            }
        }));
    }

    @Test
    void negativeLengthsAreMalformed() {
        // v0: topics is a non-nullable classic array; -1 is null, which v0 does not allow
        assertMalformed(MetadataRequest::parse, 0, ByteBuffer.allocate(4).putInt(-1), "not nullable");
        // v1: nullable, so -1 is fine but -2 is not a length
        assertNull(MetadataRequest.parse(ByteBuffer.allocate(4).putInt(-1).flip(), (short) 1).topics());
        assertMalformed(MetadataRequest::parse, 1, ByteBuffer.allocate(4).putInt(-2), "negative length");
        // a classic string of length -5 inside a topic
        assertMalformed(MetadataRequest::parse, 1, ByteBuffer.allocate(6).putInt(1).putShort((short) -5), "negative length");
        // bytes: SyncGroup v0 assignment with length -3
        assertMalformed(SyncGroupResponse::parse, 0, ByteBuffer.allocate(6).putShort((short) 0).putInt(-3), "negative length");
        // compact: uvarint 0 means null, which a non-nullable compact string does not allow
        assertMalformed(io.kraft.broker.protocol.message.ApiVersionsRequest::parse, 3,
                ByteBuffer.allocate(1).put((byte) 0), "not nullable");
    }

    @Test
    void hugeArrayAndStringLengthsAreRejectedWithoutAllocating() {
        assertMalformed(MetadataRequest::parse, 1, ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(0), "elements");
        ByteBuffer compact = ByteBuffer.allocate(8);
        Varints.writeUnsignedVarint(Integer.MAX_VALUE, compact);
        assertMalformed(MetadataRequest::parse, 12, compact, "elements");
        ByteBuffer overflow = ByteBuffer.allocate(8);
        Varints.writeUnsignedVarint(-1, overflow); // 2^32-1: minus one is a negative length
        assertMalformed(MetadataRequest::parse, 12, overflow, "negative length");
        // a huge string length in a classic string, and in a compact one
        assertMalformed(MetadataRequest::parse, 1, ByteBuffer.allocate(8).putInt(1).putShort(Short.MAX_VALUE), "claims");
        ByteBuffer compactString = ByteBuffer.allocate(24).put((byte) 2).putLong(0).putLong(0);
        Varints.writeUnsignedVarint(Integer.MAX_VALUE, compactString);
        assertMalformed(MetadataRequest::parse, 12, compactString, "claims");
        // huge bytes and records lengths
        assertMalformed(SyncGroupResponse::parse, 0, ByteBuffer.allocate(6).putShort((short) 0).putInt(Integer.MAX_VALUE), "claims");
        ByteBuffer produce = ByteBuffer.allocate(32).putShort((short) -1).putShort((short) 1).putInt(100)
                .putInt(1).putShort((short) 1).put((byte) 't').putInt(1).putInt(0).putInt(1 << 30);
        assertMalformed(io.kraft.broker.protocol.message.ProduceRequest::parse, 3, produce, "claims");
        // an over-long varint
        assertMalformed(MetadataRequest::parse, 12, ByteBuffer.wrap(new byte[] {-1, -1, -1, -1, -1, -1}).position(6), "varint");
    }

    @Test
    void badTaggedFieldSizesAreMalformed() {
        // clusterId (tag 0) says 50 bytes but the message ends first
        assertMalformed(FetchRequest::parse, 15, fetchV15WithTaggedSection(new byte[] {1, 0, 50, 4, 'a', 'b', 'c'}),
                "declares 50 bytes");
        // replicaState (tag 1) needs 12+1 bytes but declares 2
        assertMalformed(FetchRequest::parse, 15, fetchV15WithTaggedSection(new byte[] {1, 1, 2, 0, 0}), "Truncated ReplicaState");
        // clusterId declares 5 bytes but its value ("ab" = length byte + 2) takes only 3
        assertMalformed(FetchRequest::parse, 15, fetchV15WithTaggedSection(new byte[] {1, 0, 5, 3, 'a', 'b', 0, 0}), "takes 3");
        // a tagged-field count larger than the bytes left
        assertMalformed(FetchRequest::parse, 15, fetchV15WithTaggedSection(new byte[] {100, 0}), "tagged fields");
        // a tag above 2^31 is unknown, and skipped like any unknown tag of plausible size
        ByteBuffer unknown = fetchV15WithTaggedSection(new byte[] {2, 9, 2, 7, 7, -1, -1, -1, -1, 15, 0}).flip();
        FetchRequest parsed = FetchRequest.parse(unknown, (short) 15);
        assertEquals(0, unknown.remaining());
        assertNull(parsed.clusterId());
        assertEquals(500, parsed.maxWaitMs());
    }

    @Test
    void nonNullableCompactStringSentAsNullIsMalformed() {
        ByteBuffer bytes = KafkaOracle.write(new MetadataRequestData().setTopics(
                List.of(new MetadataRequestData.MetadataRequestTopic().setName(null))), (short) 12);
        assertNull(MetadataRequest.parse(bytes.duplicate(), (short) 12).topics().get(0).name(), "nullable at v12");
        // the same kind of bytes at v9: the name is not nullable there (and there is no topic id)
        ByteBuffer v9 = ByteBuffer.allocate(4).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        assertMalformed(MetadataRequest::parse, 9, v9, "not nullable");
    }

    @Test
    void unsupportedVersionsAreRefusedBeforeReading() {
        assertThrows(IllegalArgumentException.class, () -> FetchRequest.parse(ByteBuffer.allocate(100), (short) 3));
        assertThrows(IllegalArgumentException.class, () -> new FetchRequest().size((short) 18));
    }

    /** A Fetch v15 request with no topics whose top-level tagged section is {@code tagged}. */
    private static ByteBuffer fetchV15WithTaggedSection(byte[] tagged) {
        ByteBuffer kafka = KafkaOracle.write(new FetchRequestData().setMaxWaitMs(500).setMinBytes(1), (short) 15);
        ByteBuffer out = ByteBuffer.allocate(kafka.remaining() - 1 + tagged.length);
        out.put(kafka.duplicate().limit(kafka.limit() - 1)); // drop Kafka's empty tagged section
        out.put(tagged);
        return out;
    }

    private static void assertMalformed(Parser parser, int version, ByteBuffer written, String messagePart) {
        ByteBuffer in = written.position() == 0 ? written : written.flip();
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> parser.parse(in, (short) version));
        assertTrue(e.getMessage().contains(messagePart), "message '" + e.getMessage() + "' should mention '" + messagePart + "'");
    }

    private static void expectMalformedOnly(Runnable parse, java.util.function.Supplier<String> what) {
        try {
            parse.run();
            fail(what.get() + ": parsed without complaint");
        } catch (MalformedMessageException expected) {
            // the one allowed outcome
        } catch (RuntimeException | Error e) {
            fail(what.get() + ": escaped as " + e, e);
        }
    }

    @FunctionalInterface
    private interface Parser {
        ApiMessage parse(ByteBuffer in, short version);
    }
}
