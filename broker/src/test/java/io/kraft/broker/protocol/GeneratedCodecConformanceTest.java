package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiMessageFactory;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.protocol.messages.ApiMessages;
import io.kraft.broker.protocol.schema.MessageReader;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.MessageWriter;
import io.kraft.broker.protocol.schema.Struct;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The generated message classes, every API, every version, both directions, judged by kafka-clients
 * (and, value by value, by the schema codec they replace):
 * (1) a populated message written by Kafka is read by our class to the same values the schema codec
 * reads, sized exactly, written back byte-identically, and Kafka reads our bytes to an equal message,
 * until every field was seen populated (and every nullable one null);
 * (2) a populated message built through our setters is written as the schema codec writes it, Kafka
 * reads and re-writes it to the same bytes, and we read it back to an equal object;
 * (3) all-default messages agree with Kafka's byte for byte.
 * Replay a failure with -Dkraft.seed=SEED.
 */
class GeneratedCodecConformanceTest {
    private static final int ITERATIONS = 25;
    private static final int MIN_ITERATIONS = 10;
    private static final int MAX_ITERATIONS = 400;
    private static final long SEED = Long.getLong("kraft.seed", System.nanoTime());

    record Case(ApiKey api, boolean request, short version) {
        MessageSchema schema() {
            return TypedBridge.schema(api, request);
        }

        @Override
        public String toString() {
            return api.apiName() + (request ? "Request" : "Response") + " v" + version;
        }
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (ApiKey api : ApiMessages.declared()) {
            for (boolean request : new boolean[] {true, false}) {
                for (short v = api.acceptedVersions().lowest(); v <= api.acceptedVersions().highest(); v++) {
                    cases.add(new Case(api, request, v));
                }
            }
        }
        return cases;
    }

    private static Stream<DynamicTest> forEachCase(CaseTest test) {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> test.run(c)));
    }

    @FunctionalInterface
    private interface CaseTest {
        void run(Case c) throws Exception;
    }

    @Test
    void everyDeclaredApiHasGeneratedClassesWithItsVersions() {
        for (ApiKey api : ApiKey.values()) {
            assertEquals(ApiMessages.isDeclared(api), ApiMessageFactory.isKnown(api.id()), api.apiName());
        }
        for (ApiKey api : ApiMessages.declared()) {
            for (ApiMessage m : new ApiMessage[] {ApiMessageFactory.newRequest(api), ApiMessageFactory.newResponse(api)}) {
                assertEquals(api.id(), m.apiKey(), m.getClass().getSimpleName());
                assertEquals(api.acceptedVersions().lowest(), m.lowestSupportedVersion(), m.getClass().getSimpleName());
                assertEquals(api.acceptedVersions().highest(), m.highestSupportedVersion(), m.getClass().getSimpleName());
            }
            assertEquals(api.apiName() + "Request", ApiMessageFactory.newRequest(api).getClass().getSimpleName());
            assertEquals(api.apiName() + "Response", ApiMessageFactory.newResponse(api).getClass().getSimpleName());
        }
    }

    @TestFactory
    Stream<DynamicTest> kafkaBytesRoundTripThroughGeneratedClassesUnchanged() {
        return forEachCase(c -> {
            Random random = new Random(SEED ^ c.hashCode());
            FieldCoverage coverage = new FieldCoverage();
            for (int i = 0; i < MAX_ITERATIONS && (i < MIN_ITERATIONS || !coverage.missing(c.schema(), c.version).isEmpty()); i++) {
                org.apache.kafka.common.protocol.ApiMessage original = KafkaOracle.randomMessage(c.api, c.request, c.version, random);
                ByteBuffer kafkaBytes = KafkaOracle.write(original, c.version);
                ByteBuffer in = kafkaBytes.duplicate();
                ApiMessage ours = TypedBridge.parse(c.api, c.request, c.version, in);
                assertFalse(in.hasRemaining(), () -> c + " left bytes unread; seed " + SEED);

                Struct values = TypedBridge.toStruct(ours, c.schema().root());
                assertEquals(MessageReader.read(c.schema(), c.version, kafkaBytes.duplicate()), values,
                        () -> c + " values differ from the schema codec's; seed " + SEED + "\nkafka message: " + original);
                coverage.observe(values, c.version);

                assertEquals(kafkaBytes.remaining(), ours.size(c.version), () -> c + " size; seed " + SEED);
                ByteBuffer ourBytes = ours.toBuffer(c.version);
                assertEquals(kafkaBytes, ourBytes, () -> c + " bytes differ after our round trip; seed " + SEED
                        + "\nkafka message: " + original + "\nours: " + ours);
                assertEquals(original, KafkaOracle.parse(c.api, c.request, c.version, ourBytes),
                        () -> c + " Kafka reads our bytes differently; seed " + SEED);
                assertEquals(0, ours.externalRecordsBytes(c.version));
            }
            assertEquals("", coverage.missing(c.schema(), c.version),
                    c + ": fields never exercised in " + MAX_ITERATIONS + " messages; seed " + SEED);
        });
    }

    @TestFactory
    Stream<DynamicTest> messagesBuiltThroughSettersAreReadAndRewrittenIdenticallyByKafka() {
        return forEachCase(c -> {
            Random random = new Random(SEED ^ (31L * c.hashCode()));
            for (int i = 0; i < ITERATIONS; i++) {
                Struct body = OurRandom.randomBody(c.schema(), c.version, random);
                ApiMessage ours = TypedBridge.fromStruct(body, c.api, c.request);
                ByteBuffer ourBytes = ours.toBuffer(c.version);
                assertEquals(MessageWriter.toBuffer(c.schema(), body, c.version), ourBytes,
                        () -> c + " the schema codec writes other bytes; seed " + SEED + "\nours: " + ours);
                org.apache.kafka.common.protocol.ApiMessage kafka = KafkaOracle.parse(c.api, c.request, c.version, ourBytes);
                assertEquals(ourBytes, KafkaOracle.write(kafka, c.version),
                        () -> c + " Kafka re-writes our bytes differently; seed " + SEED + "\nours: " + ours
                                + "\nkafka message: " + kafka);
                ApiMessage reread = TypedBridge.parse(c.api, c.request, c.version, ourBytes.duplicate());
                assertEquals(ours, reread, () -> c + " we read our own bytes differently; seed " + SEED);
                assertEquals(ours.hashCode(), reread.hashCode(), () -> c + " equal messages hash differently; seed " + SEED);
                assertEquals(body, TypedBridge.toStruct(reread, c.schema().root()),
                        () -> c + " values differ from those set; seed " + SEED);
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> defaultMessagesAgreeWithKafka() {
        return forEachCase(c -> {
            ByteBuffer kafkaBytes = KafkaOracle.write(KafkaOracle.newMessage(c.api, c.request), c.version);
            ApiMessage ours = TypedBridge.newMessage(c.api, c.request);
            assertEquals(kafkaBytes, ours.toBuffer(c.version), () -> c + " default message differs from Kafka's");
            assertEquals(ours, TypedBridge.parse(c.api, c.request, c.version, kafkaBytes.duplicate()),
                    () -> c + " Kafka's defaults read as non-defaults");
            assertEquals(c.schema().newStruct(), TypedBridge.toStruct(ours, c.schema().root()),
                    () -> c + " defaults differ from the schema codec's");
            assertTrue(ours.toString().startsWith(ours.getClass().getSimpleName() + "("), ours::toString);
        });
    }

    @Test
    void aFieldTheVersionLacksIsNotWritten() {
        FetchRequest withTopicId = new FetchRequest().setMaxWaitMs(500);
        withTopicId.topics().add(new FetchRequest.FetchTopic().setTopic("t").setTopicId(new UUID(1, 2)));
        FetchRequest withoutTopicId = new FetchRequest().setMaxWaitMs(500);
        withoutTopicId.topics().add(new FetchRequest.FetchTopic().setTopic("t"));
        assertNotEquals(withTopicId, withoutTopicId);
        // topic ids exist from v13; v12 has topic names only
        assertEquals(withoutTopicId.toBuffer((short) 12), withTopicId.toBuffer((short) 12));
        assertNotEquals(withoutTopicId.toBuffer((short) 13), withTopicId.toBuffer((short) 13));
        // and reading v12 leaves the absent field at its default
        assertEquals(withoutTopicId, FetchRequest.parse(withTopicId.toBuffer((short) 12), (short) 12));
    }

    @Test
    void taggedFieldsAreSentOnlyWhenNotDefault() {
        FetchRequest request = new FetchRequest();
        int plain = request.size((short) 15);
        request.setClusterId("cluster"); // tag 0, nullable, default null
        assertEquals(plain + 1 + 1 + 1 + "cluster".length(), request.size((short) 15));
        request.setClusterId(null);
        request.replicaState().setReplicaEpoch(7L); // tag 1, a struct: sent once it is not all-default
        assertEquals(plain + 1 + 1 + (4 + 8 + 1), request.size((short) 15));
        assertEquals(request, FetchRequest.parse(request.toBuffer((short) 15), (short) 15));
    }
}
