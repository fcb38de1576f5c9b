package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kraft.broker.protocol.codec.MalformedMessageException;
import io.kraft.broker.protocol.codec.Varints;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiVersionsRequest;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.protocol.message.MetadataRequest;
import io.kraft.broker.protocol.message.ProduceRequest;
import io.kraft.broker.protocol.message.SyncGroupResponse;
import io.kraft.generator.FieldSpec;
import io.kraft.generator.MessageSpec;
import io.kraft.generator.StructSpec;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Broken bodies of every API and version end in MalformedMessageException only, lying lengths before any allocation. */
class GeneratedMalformedInputTest {
    private static final int TRUNCATED_MESSAGES = 3;
    private static final int CORRUPTIONS = 50;
    /** Claimed lengths: 2^30, 2^31-1 and 2^32-1 (minus one, a negative length) as int32, int16 and varints. */
    private static final byte[][] HUGE_LENGTHS = {
        {0x40, 0, 0, 0}, {0x7F, -1, -1, -1}, {0x7F, -1},
        {-128, -128, -128, -128, 0x04}, {-1, -1, -1, -1, 0x07}, {-1, -1, -1, -1, 0x0F},
    };
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @TestFactory
    Stream<DynamicTest> everyTruncationOfEveryBodyIsMalformed() {
        return ProtocolCase.each(c -> {
            Random random = c.random("truncation");
            for (int round = 0; round < TRUNCATED_MESSAGES; round++) {
                ByteBuffer full = KafkaOracle.write(KafkaOracle.randomMessage(c, random), c.version());
                for (int length = 0; length < full.remaining(); length++) {
                    ByteBuffer prefix = full.duplicate().limit(length);
                    int cut = length;
                    expectMalformed(() -> c.read(prefix), () -> c.where() + " cut at " + cut + " of " + full.remaining());
                }
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> hugeLengthsAtEveryOffsetAreRejectedBeforeAllocating() {
        assumeTrue(THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled(),
                "this JVM does not count allocated bytes per thread");
        return ProtocolCase.each(c -> {
            ByteBuffer full = KafkaOracle.write(KafkaOracle.randomMessage(c, c.random("hugeLengths")), c.version());
            readOrMalformed(c, full.duplicate()); // warm up: class loading is no part of the measurement
            long allowed = (4L << 20) + 512L * full.remaining();
            for (int at = 0; at < full.remaining(); at++) {
                for (byte[] huge : HUGE_LENGTHS) {
                    ByteBuffer lie = copy(full);
                    for (int i = 0; i < huge.length && at + i < lie.limit(); i++) {
                        lie.put(at + i, huge[i]);
                    }
                    long before = THREADS.getCurrentThreadAllocatedBytes();
                    readOrMalformed(c, lie);
                    long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
                    int offset = at;
                    assertTrue(allocated < allowed, () -> c.where() + " allocated " + allocated + " bytes for a "
                            + full.remaining() + "-byte body claiming a huge length at offset " + offset);
                }
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> randomCorruptionIsMalformedOrReadAsKafkaReadsIt() {
        return ProtocolCase.each(c -> {
            Random random = c.random("corruption");
            ByteBuffer full = KafkaOracle.write(KafkaOracle.randomMessage(c, random), c.version());
            if (!full.hasRemaining()) {
                return;
            }
            for (int i = 0; i < CORRUPTIONS; i++) {
                ByteBuffer corrupt = copy(full);
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    corrupt.put(random.nextInt(corrupt.remaining()), (byte) random.nextInt(256));
                }
                ByteBuffer in = corrupt.duplicate();
                ApiMessage ours = readOrMalformed(c, in);
                org.apache.kafka.common.protocol.ApiMessage kafka = kafkaReadOrNull(c, corrupt);
                if (ours != null && !in.hasRemaining() && kafka != null) {
                    // both accept the corrupt bytes: they must have read the same message from them
                    SameValues.assertSame(c.spec(), c.version(), ours, kafka);
                }
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> unknownTaggedFieldsInAnyStructAreSkipped() {
        return ProtocolCase.each(ProtocolCase::flexible, c -> {
            Random random = c.random("unknownTags");
            for (int i = 0; i < 10; i++) {
                org.apache.kafka.common.protocol.ApiMessage kafka = KafkaOracle.randomMessage(c, random);
                ApiMessage clean = c.read(KafkaOracle.write(kafka, c.version()));
                int added = addUnknownTags(c.spec(), c.spec().body(), c.version(), kafka, random);
                ByteBuffer withUnknownTags = KafkaOracle.write(kafka, c.version());
                ByteBuffer in = withUnknownTags.duplicate();
                assertEquals(clean, c.read(in), () -> c.where() + " unknown tags changed what was read (" + added + " added)");
                assertEquals(0, in.remaining(), c::where);
            }
        });
    }

    /**
     * Adds raw tagged fields to the Kafka message's structs: tags the struct does not know at this version (known
     * in others, or never), with random content. Returns how many were added.
     */
    private static int addUnknownTags(MessageSpec m, StructSpec s, short v, Message kafka, Random random) {
        TreeSet<Integer> known = new TreeSet<>();
        for (FieldSpec f : s.fields()) {
            if (Specs.exists(f, v) && Specs.tagged(f, v)) {
                known.add(f.tag());
            }
        }
        int added = 0;
        for (int tag : new int[] {0, 1, 2, 3, 7, 1000, 70000}) {
            if (!known.contains(tag) && random.nextInt(3) == 0) {
                kafka.unknownTaggedFields().add(new RawTaggedField(tag, KafkaOracle.randomBytes(random)));
                added++;
            }
        }
        for (FieldSpec f : s.fields()) {
            StructSpec nested = Specs.structOf(m, f);
            Object value = nested != null && Specs.exists(f, v) ? SpecFields.get(kafka, f) : null;
            if (value instanceof Collection<?> elements) {
                for (Object element : elements) {
                    added += addUnknownTags(m, nested, v, (Message) element, random);
                }
            } else if (value instanceof Message struct) {
                added += addUnknownTags(m, nested, v, struct, random);
            }
        }
        return added;
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
        assertMalformed(ApiVersionsRequest::parse, 3, ByteBuffer.allocate(1).put((byte) 0), "not nullable");
    }

    @Test
    void hugeArrayStringBytesAndRecordsLengthsAreMalformed() {
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
        assertMalformed(ProduceRequest::parse, 3, produce, "claims");
        // an over-long varint
        assertMalformed(MetadataRequest::parse, 12, ByteBuffer.wrap(new byte[] {-1, -1, -1, -1, -1, -1}).position(6), "varint");
    }

    @Test
    void badTaggedFieldSizesAreMalformed() {
        // clusterId (tag 0) says 50 bytes but the message ends first
        assertMalformed(FetchRequest::parse, 15, fetchV15WithTaggedSection(new byte[] {1, 0, 50, 4, 'a', 'b', 'c'}),
                "declares 50 bytes");
        // replicaState (tag 1) needs 4 + 8 + 1 bytes but declares 2
        assertMalformed(FetchRequest::parse, 15, fetchV15WithTaggedSection(new byte[] {1, 1, 2, 0, 0}), "Truncated ReplicaState");
        // clusterId declares 5 bytes but its value ("ab": a length byte and 2) takes only 3
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
        assertThrows(IllegalArgumentException.class, () -> new FetchRequest().read(ByteBuffer.allocate(100), (short) 18));
    }

    /** A Fetch v15 request with no topics whose top-level tagged section is {@code tagged}. */
    private static ByteBuffer fetchV15WithTaggedSection(byte[] tagged) {
        ByteBuffer kafka = KafkaOracle.write(new FetchRequestData().setMaxWaitMs(500).setMinBytes(1), (short) 15);
        ByteBuffer out = ByteBuffer.allocate(kafka.remaining() - 1 + tagged.length);
        out.put(kafka.duplicate().limit(kafka.limit() - 1)); // drop Kafka's empty tagged section
        out.put(tagged);
        return out;
    }

    private static ByteBuffer copy(ByteBuffer bytes) {
        return ByteBuffer.allocate(bytes.remaining()).put(bytes.duplicate()).flip();
    }

    /** Our reading of the bytes, null if they are malformed; any other failure fails the test. */
    private static ApiMessage readOrMalformed(ProtocolCase c, ByteBuffer in) {
        try {
            return c.read(in);
        } catch (MalformedMessageException expected) {
            return null;
        } catch (RuntimeException | Error e) {
            return fail(c.where() + " escaped as " + e, e);
        }
    }

    private static org.apache.kafka.common.protocol.ApiMessage kafkaReadOrNull(ProtocolCase c, ByteBuffer bytes) {
        try {
            return KafkaOracle.read(c, bytes);
        } catch (RuntimeException | AssertionError e) {
            return null;
        }
    }

    private static void assertMalformed(Parser parser, int version, ByteBuffer written, String messagePart) {
        ByteBuffer in = written.position() == 0 ? written : written.flip();
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> parser.parse(in, (short) version));
        assertTrue(e.getMessage().contains(messagePart), "message '" + e.getMessage() + "' should mention '" + messagePart + "'");
    }

    private static void expectMalformed(Runnable read, Supplier<String> what) {
        try {
            read.run();
            fail(what.get() + ": read without complaint");
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
