package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.protocol.messages.ApiMessages;
import io.kraft.broker.protocol.schema.MessageReader;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.MessageWriter;
import io.kraft.broker.protocol.schema.Struct;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.ApiMessage;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every declared API, every version, both directions, judged by kafka-clients:
 * (1) our schema has exactly Kafka's fields, types and tags at that version;
 * (2) a populated Kafka message written by Kafka, read by us and written back is byte-identical,
 * and Kafka reads our bytes back to an equal message;
 * (3) a populated message built by us, written by us, is read by Kafka and re-written by Kafka to
 * the same bytes; (4) all-default messages agree (so tagged-field defaults match).
 * Replay a failure with -Dkraft.seed=SEED.
 */
class CodecConformanceTest {
    private static final int ITERATIONS = 25;
    private static final int MIN_ITERATIONS = 10;
    private static final int MAX_ITERATIONS = 400;
    private static final long SEED = Long.getLong("kraft.seed", System.nanoTime());

    private record Case(ApiKey api, boolean request, short version) {
        MessageSchema ours() {
            return request ? ApiMessages.requestSchema(api) : ApiMessages.responseSchema(api);
        }

        @Override
        public String toString() {
            return api.apiName() + (request ? "Request" : "Response") + " v" + version;
        }
    }

    private static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (ApiKey api : ApiMessages.declared()) {
            for (boolean request : new boolean[] {true, false}) {
                for (short v = api.acceptedVersions().lowest(); v <= api.acceptedVersions().highest(); v++) {
                    cases.add(new Case(api, request, v));
                }
            }
        }
        return cases.stream();
    }

    @TestFactory
    Stream<DynamicTest> schemaMatchesKafkaFieldForField() {
        return cases().map(c -> DynamicTest.dynamicTest(c.toString(), () -> assertEquals(
                String.join("\n", KafkaOracle.describeKafka(KafkaOracle.kafkaSchema(c.api, c.request, c.version))),
                String.join("\n", KafkaOracle.describeOurs(c.ours(), c.version)),
                c + " differs from Kafka's schema")));
    }

    @TestFactory
    Stream<DynamicTest> kafkaBytesRoundTripThroughOurCodecUnchanged() {
        return cases().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
            Random random = new Random(SEED ^ c.hashCode());
            FieldCoverage coverage = new FieldCoverage();
            // keep generating until every field was seen populated (and every nullable one null)
            for (int i = 0; i < MAX_ITERATIONS && (i < MIN_ITERATIONS || !coverage.missing(c.ours(), c.version).isEmpty()); i++) {
                ApiMessage original = KafkaOracle.randomMessage(c.api, c.request, c.version, random);
                ByteBuffer kafkaBytes = KafkaOracle.write(original, c.version);
                Struct parsed = MessageReader.read(c.ours(), c.version, kafkaBytes.duplicate());
                coverage.observe(parsed, c.version);
                ByteBuffer ourBytes = MessageWriter.toBuffer(c.ours(), parsed, c.version);
                assertEquals(kafkaBytes, ourBytes, () -> c + " bytes differ after our round trip; seed " + SEED
                        + "\nkafka message: " + original + "\nour struct: " + parsed);
                assertEquals(original, KafkaOracle.parse(c.api, c.request, c.version, ourBytes),
                        () -> c + " Kafka reads our bytes differently; seed " + SEED);
            }
            assertEquals("", coverage.missing(c.ours(), c.version),
                    c + ": fields never exercised in " + MAX_ITERATIONS + " messages; seed " + SEED);
        }));
    }

    @TestFactory
    Stream<DynamicTest> ourMessagesAreReadAndRewrittenIdenticallyByKafka() {
        return cases().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
            Random random = new Random(SEED ^ (31L * c.hashCode()));
            for (int i = 0; i < ITERATIONS; i++) {
                Struct body = OurRandom.randomBody(c.ours(), c.version, random);
                ByteBuffer ourBytes = MessageWriter.toBuffer(c.ours(), body, c.version);
                ApiMessage kafka = KafkaOracle.parse(c.api, c.request, c.version, ourBytes);
                assertEquals(ourBytes, KafkaOracle.write(kafka, c.version),
                        () -> c + " Kafka re-writes our bytes differently; seed " + SEED + "\nour struct: " + body
                                + "\nkafka message: " + kafka);
                assertEquals(body, MessageReader.read(c.ours(), c.version, ourBytes.duplicate()),
                        () -> c + " we read our own bytes differently; seed " + SEED);
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> defaultMessagesAgreeWithKafka() {
        return cases().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
            ApiMessage kafkaDefault = KafkaOracle.newMessage(c.api, c.request);
            ByteBuffer kafkaBytes = KafkaOracle.write(kafkaDefault, c.version);
            ByteBuffer ourBytes = MessageWriter.toBuffer(c.ours(), c.ours().newStruct(), c.version);
            assertEquals(kafkaBytes, ourBytes, () -> c + " default message differs from Kafka's " + kafkaDefault);
            assertEquals(c.ours().newStruct(), MessageReader.read(c.ours(), c.version, kafkaBytes.duplicate()),
                    () -> c + " Kafka's defaults read as non-defaults");
        }));
    }
}
