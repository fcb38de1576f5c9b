package io.kraft.broker.protocol;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.generator.FieldSpec;
import io.kraft.generator.FieldType;
import io.kraft.generator.MessageSpec;
import io.kraft.generator.StructSpec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Populated generated messages, built only through their public setters and nested classes: the spec says
 * which fields exist at the version and of what type; every such field gets a random value (nested arrays,
 * nulls where nullable, tagged fields sometimes left at their defaults).
 */
final class OurRandom {
    private OurRandom() {
    }

    /** Random values in every field the case's version has; the others keep their defaults. */
    static ApiMessage message(ProtocolCase c, Random r) {
        ApiMessage message = c.newMessage();
        fill(message, c.spec(), c.spec().body(), c.version(), r, 0, false);
        return message;
    }

    /** Random values in every field of every version, including those the case's version lacks. */
    static ApiMessage messageWithEveryField(ProtocolCase c, Random r) {
        ApiMessage message = c.newMessage();
        fill(message, c.spec(), c.spec().body(), c.version(), r, 0, true);
        return message;
    }

    private static void fill(Object target, MessageSpec m, StructSpec s, short v, Random r, int depth,
                             boolean everyField) {
        for (FieldSpec f : s.fields()) {
            boolean present = Specs.exists(f, v);
            if (!present && !everyField || present && Specs.tagged(f, v) && r.nextInt(3) == 0) {
                continue; // absent, or a tagged field left at its default
            }
            if (present && Specs.nullable(f, v) && !neverNullForKafka(m, f) && r.nextInt(5) == 0) {
                SpecFields.set(target, f, null);
                continue;
            }
            SpecFields.set(target, f, value(target.getClass(), m, f, v, r, depth, everyField));
        }
    }

    private static Object value(Class<?> owner, MessageSpec m, FieldSpec f, short v, Random r, int depth,
                                boolean everyField) {
        StructSpec nested = Specs.structOf(m, f);
        if (f.type() instanceof FieldType.ArrayOf array) {
            int n = r.nextInt(depth > 1 ? 2 : 4);
            List<Object> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                if (nested == null) {
                    list.add(primitive((FieldType.Primitive) array.element(), r));
                } else {
                    Object element = SpecFields.newValue(owner, f);
                    fill(element, m, nested, v, r, depth + 1, everyField);
                    list.add(element);
                }
            }
            return list;
        }
        if (nested != null) {
            Object struct = SpecFields.newValue(owner, f);
            fill(struct, m, nested, v, r, depth + 1, everyField);
            return struct;
        }
        return primitive((FieldType.Primitive) f.type(), r);
    }

    static Object primitive(FieldType.Primitive type, Random r) {
        return switch (type) {
            case BOOL -> r.nextBoolean();
            case INT8 -> (byte) interestingLong(r);
            case INT16 -> (short) interestingLong(r);
            case UINT16 -> (int) (interestingLong(r) & 0xFFFF);
            case INT32, VARINT -> (int) interestingLong(r);
            case UINT32 -> interestingLong(r) & 0xFFFFFFFFL;
            case INT64, VARLONG -> interestingLong(r);
            case FLOAT64 -> r.nextBoolean() ? r.nextDouble() : (double) interestingLong(r);
            case UUID -> new UUID(r.nextLong(), r.nextLong());
            case STRING -> KafkaOracle.randomString(r);
            case BYTES, RECORDS -> ByteBuffer.wrap(KafkaOracle.randomBytes(r));
        };
    }

    /** Any long, small ones, powers of two and the extremes (narrowed by the caller to its width). */
    private static long interestingLong(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> r.nextLong();
            case 1 -> r.nextInt(300) - 150;
            case 2 -> 1L << r.nextInt(64);
            case 3 -> -1L << r.nextInt(64);
            default -> r.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
        };
    }

    /**
     * ShareFetchResponse's records: nullable in our spec only because our generator wants a records field that
     * defaults to null to be nullable; Kafka's schema (and so its parser) refuses a null there, and the handler never
     * sends one (see {@link ProtocolCase#recordsNullableOnlyInOurSpec}).
     */
    private static boolean neverNullForKafka(MessageSpec m, FieldSpec f) {
        return m.name().equals("ShareFetchResponse") && f.type() == FieldType.Primitive.RECORDS;
    }
}
