package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.generator.FieldSpec;
import io.kraft.generator.FieldType;
import io.kraft.generator.MessageSpec;
import io.kraft.generator.StructSpec;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The generated classes agree with kafka-clients, every API, version and direction: Kafka's bytes, our messages, defaults. */
class GeneratedCodecConformanceTest {
    private static final int MIN_MESSAGES = 10;
    private static final int MAX_MESSAGES = 400;
    private static final int OUR_MESSAGES = 25;
    private static final Map<String, Class<?>> KAFKA_ELEMENT_CLASSES = new ConcurrentHashMap<>();

    @TestFactory
    Stream<DynamicTest> kafkaBytesRoundTripThroughOurClassesUnchanged() {
        return ProtocolCase.each(c -> !c.recordsNullableOnlyInOurSpec(), c -> {
            Random random = c.random("kafkaBytesRoundTrip");
            short v = c.version();
            FieldCoverage coverage = new FieldCoverage(c.spec(), v);
            // keep going until every field was seen populated and every nullable one null
            for (int i = 0; i < MAX_MESSAGES && (i < MIN_MESSAGES || !coverage.missing().isEmpty()); i++) {
                org.apache.kafka.common.protocol.ApiMessage kafka = KafkaOracle.randomMessage(c, random);
                ByteBuffer kafkaBytes = KafkaOracle.write(kafka, v);
                ByteBuffer in = kafkaBytes.duplicate();
                ApiMessage ours = c.read(in);
                assertFalse(in.hasRemaining(), () -> c.where() + " left bytes unread");
                SameValues.assertSame(c.spec(), v, ours, kafka);
                coverage.observe(ours);

                assertEquals(kafkaBytes.remaining(), ours.size(v), () -> c.where() + " sized wrong");
                ByteBuffer ourBytes = ours.toBuffer(v);
                assertEquals(kafkaBytes, ourBytes, () -> c.where() + " bytes differ after our round trip"
                        + "\nKafka's message: " + kafka + "\nours: " + ours);
                assertEquals(kafka, KafkaOracle.read(c, ourBytes), () -> c.where() + " Kafka reads our bytes differently");
                assertEquals(0, ours.externalRecordsBytes(v));
            }
            assertEquals("", coverage.missing(), () -> c.where() + " fields never exercised in " + MAX_MESSAGES + " messages");
        });
    }

    @TestFactory
    Stream<DynamicTest> ourMessagesAreReadAndRewrittenIdenticallyByKafka() {
        return ProtocolCase.each(c -> !c.recordsNullableOnlyInOurSpec(), c -> {
            Random random = c.random("ourMessages");
            short v = c.version();
            FieldCoverage coverage = new FieldCoverage(c.spec(), v);
            for (int i = 0; i < MAX_MESSAGES && (i < OUR_MESSAGES || !coverage.missing().isEmpty()); i++) {
                ApiMessage ours = OurRandom.message(c, random);
                coverage.observe(ours);
                ByteBuffer ourBytes = ours.toBuffer(v);
                assertEquals(ourBytes.remaining(), ours.size(v), () -> c.where() + " sized wrong: " + ours);
                org.apache.kafka.common.protocol.ApiMessage kafka = KafkaOracle.read(c, ourBytes);
                SameValues.assertSame(c.spec(), v, ours, kafka);
                assertEquals(ourBytes, KafkaOracle.write(kafka, v), () -> c.where() + " Kafka re-writes our bytes differently"
                        + "\nours: " + ours + "\nKafka's message: " + kafka);

                ApiMessage reread = c.read(ourBytes.duplicate());
                assertEquals(ours, reread, () -> c.where() + " we read our own bytes differently");
                assertEquals(ours.hashCode(), reread.hashCode(), () -> c.where() + " equal messages hash differently");
            }
            assertEquals("", coverage.missing(), () -> c.where() + " our random messages never exercised");
        });
    }

    @TestFactory
    Stream<DynamicTest> valuesInFieldsTheVersionLacksAreNeitherWrittenNorRead() {
        return ProtocolCase.each(c -> {
            Random random = c.random("fieldsTheVersionLacks");
            short v = c.version();
            boolean lacksSome = c.spec().body().fields().stream().anyMatch(f -> !Specs.exists(f, v));
            int differed = 0;
            for (int i = 0; i < OUR_MESSAGES; i++) {
                ApiMessage full = OurRandom.messageWithEveryField(c, random);
                ApiMessage projected = (ApiMessage) project(c.spec(), c.spec().body(), v, full);
                if (!full.equals(projected)) {
                    differed++;
                }
                ByteBuffer bytes = full.toBuffer(v);
                assertEquals(projected.toBuffer(v), bytes, () -> c.where() + " wrote a field the version lacks: " + full);
                assertEquals(projected, c.read(bytes.duplicate()), () -> c.where() + " read a field the version lacks");
            }
            if (lacksSome) {
                assertTrue(differed > 0, c.where() + " never held a field the version lacks");
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> defaultMessagesAgreeWithKafka() {
        return ProtocolCase.each(c -> {
            org.apache.kafka.common.protocol.ApiMessage kafka = KafkaOracle.newMessage(c);
            ApiMessage ours = c.newMessage();
            SameValues.assertSameInEveryVersion(c.spec(), ours, kafka);
            ByteBuffer kafkaBytes = KafkaOracle.write(kafka, c.version());
            assertEquals(kafkaBytes, ours.toBuffer(c.version()), () -> c + " default message differs from Kafka's");
            assertEquals(ours, c.read(kafkaBytes.duplicate()), () -> c + " Kafka's defaults read as non-defaults");
            assertTrue(ours.toString().startsWith(ours.getClass().getSimpleName() + "("), ours::toString);
        });
    }

    @TestFactory
    Stream<DynamicTest> defaultsOfEveryNestedStructAgreeWithKafka() {
        return ProtocolCase.each(c -> !c.recordsNullableOnlyInOurSpec(), c -> {
            org.apache.kafka.common.protocol.ApiMessage kafka = KafkaOracle.newMessage(c);
            ApiMessage ours = c.newMessage();
            // one all-default element in every array of structs the version has, all the way down
            addDefaultElements(c.spec(), c.spec().body(), c.version(), ours, kafka);
            SameValues.assertSameInEveryVersion(c.spec(), ours, kafka);
            ByteBuffer kafkaBytes = KafkaOracle.write(kafka, c.version());
            assertEquals(kafkaBytes, ours.toBuffer(c.version()), () -> c + " nested defaults differ from Kafka's: " + ours);
            assertEquals(ours, c.read(kafkaBytes.duplicate()), () -> c + " Kafka's nested defaults read as non-defaults");
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
        assertEquals(withoutTopicId, FetchRequest.parse(withTopicId.toBuffer((short) 12), (short) 12));
    }

    @Test
    void taggedFieldsAreSentOnlyWhenNotDefault() {
        FetchRequest request = new FetchRequest();
        int plain = request.size((short) 15);
        request.setClusterId("cluster"); // tag 0, nullable, default null: tag, size, compact length, bytes
        assertEquals(plain + 1 + 1 + 1 + "cluster".length(), request.size((short) 15));
        request.setClusterId(null);
        request.replicaState().setReplicaEpoch(7L); // tag 1, a struct: sent once it is not all-default
        assertEquals(plain + 1 + 1 + (4 + 8 + 1), request.size((short) 15));
        assertEquals(request, FetchRequest.parse(request.toBuffer((short) 15), (short) 15));
    }

    /** A new object holding {@code source}'s values in the fields the version has, defaults elsewhere. */
    private static Object project(MessageSpec m, StructSpec s, short v, Object source) {
        Object copy = SpecFields.construct(source.getClass());
        for (FieldSpec f : s.fields()) {
            if (!Specs.exists(f, v)) {
                continue;
            }
            Object value = SpecFields.get(source, f);
            StructSpec nested = Specs.structOf(m, f);
            if (value != null && f.type() instanceof FieldType.ArrayOf) {
                List<Object> list = new ArrayList<>();
                for (Object element : (List<?>) value) {
                    list.add(nested == null ? element : project(m, nested, v, element));
                }
                value = list;
            } else if (value != null && nested != null) {
                value = project(m, nested, v, value);
            }
            SpecFields.set(copy, f, value);
        }
        return copy;
    }

    private static void addDefaultElements(MessageSpec m, StructSpec s, short v, Object ours, Object kafka) {
        for (FieldSpec f : s.fields()) {
            StructSpec nested = Specs.structOf(m, f);
            if (nested == null || !Specs.exists(f, v)) {
                continue;
            }
            Object o = SpecFields.get(ours, f);
            Object k = SpecFields.get(kafka, f);
            if (o == null || k == null) {
                continue; // a null default: SameValues reports whether Kafka's is null too
            }
            if (f.type() instanceof FieldType.ArrayOf) {
                Object oe = SpecFields.newValue(ours.getClass(), f);
                Object ke = SpecFields.construct(kafkaElementClass(kafka.getClass(), f));
                addUnchecked((Collection<?>) o, oe);
                addUnchecked((Collection<?>) k, ke);
                addDefaultElements(m, nested, v, oe, ke);
            } else {
                addDefaultElements(m, nested, v, o, k);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void addUnchecked(Collection<?> collection, Object element) {
        ((Collection<Object>) collection).add(element);
    }

    /** The element class of a Kafka array field: from {@code List<E>}, or from a collection class's supertype. */
    private static Class<?> kafkaElementClass(Class<?> owner, FieldSpec f) {
        return KAFKA_ELEMENT_CLASSES.computeIfAbsent(owner.getName() + "#" + f.name(), k -> findKafkaElementClass(owner, f));
    }

    private static Class<?> findKafkaElementClass(Class<?> owner, FieldSpec f) {
        for (Method m : owner.getMethods()) {
            if (m.getName().equals("set" + SpecFields.capitalize(f.name())) && m.getParameterCount() == 1) {
                Type type = m.getGenericParameterTypes()[0];
                while (!(type instanceof ParameterizedType)) {
                    type = ((Class<?>) type).getGenericSuperclass();
                }
                return (Class<?>) ((ParameterizedType) type).getActualTypeArguments()[0];
            }
        }
        throw new AssertionError(owner.getName() + " has no setter for " + f.name());
    }
}
