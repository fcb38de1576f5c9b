package io.kraft.broker.protocol;

import io.kraft.generator.FieldSpec;
import io.kraft.generator.FieldType;
import io.kraft.generator.MessageSpec;
import io.kraft.generator.StructSpec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * Compares one of our generated objects with kafka-clients' object of the same message, field by field
 * through the getters both have, as the spec describes the fields: so a value that lands in the wrong field, or
 * a default that differs, is caught even where the bytes would agree.
 */
final class SameValues {
    private SameValues() {
    }

    /** Every field the version has. */
    static void assertSame(MessageSpec message, short version, Object ours, Object kafka) {
        assertSame(message, message.name() + " v" + version, f -> Specs.exists(f, version), ours, kafka);
    }

    /** Every field of every version (for defaults, which a new object holds in all of them). */
    static void assertSameInEveryVersion(MessageSpec message, Object ours, Object kafka) {
        assertSame(message, message.name(), f -> true, ours, kafka);
    }

    private static void assertSame(MessageSpec message, String what, Predicate<FieldSpec> which, Object ours,
                                   Object kafka) {
        List<String> differences = new ArrayList<>();
        compare(message, message.body(), which, ours, kafka, what, differences);
        if (!differences.isEmpty()) {
            throw new AssertionError(String.join("\n", differences) + TestSeed.replay());
        }
    }

    private static void compare(MessageSpec m, StructSpec s, Predicate<FieldSpec> which, Object ours,
                                Object kafka, String path, List<String> differences) {
        for (FieldSpec f : s.fields()) {
            if (!which.test(f)) {
                continue;
            }
            String at = path + "." + f.name();
            Object o = SpecFields.get(ours, f);
            Object k = SpecFields.get(kafka, f);
            if (o == null || k == null) {
                check(o == null && k == null, at, o, k, differences);
                continue;
            }
            StructSpec nested = Specs.structOf(m, f);
            if (f.type() instanceof FieldType.ArrayOf) {
                Collection<?> ol = (Collection<?>) o;
                Collection<?> kl = (Collection<?>) k;
                if (ol.size() != kl.size()) {
                    check(false, at + ".size()", ol.size(), kl.size(), differences);
                    continue;
                }
                Iterator<?> ki = kl.iterator();
                int i = 0;
                for (Object oe : ol) {
                    Object ke = ki.next();
                    if (nested != null) {
                        compare(m, nested, which, oe, ke, at + "[" + i + "]", differences);
                    } else {
                        check(Objects.equals(oe, normalise(ke)), at + "[" + i + "]", oe, ke, differences);
                    }
                    i++;
                }
            } else if (nested != null) {
                compare(m, nested, which, o, k, at, differences);
            } else {
                check(Objects.equals(o, normalise(k)), at, o, k, differences);
            }
        }
    }

    /** Kafka's value as ours holds it: Uuid as UUID, byte[] and records as a ByteBuffer. */
    private static Object normalise(Object kafka) {
        if (kafka instanceof Uuid u) {
            return new UUID(u.getMostSignificantBits(), u.getLeastSignificantBits());
        }
        if (kafka instanceof byte[] b) {
            return ByteBuffer.wrap(b);
        }
        if (kafka instanceof MemoryRecords r) {
            return r.buffer();
        }
        return kafka;
    }

    private static void check(boolean same, String at, Object ours, Object kafka, List<String> differences) {
        if (!same) {
            differences.add(at + ": ours is " + describe(ours) + ", Kafka's is " + describe(kafka));
        }
    }

    private static String describe(Object value) {
        return value instanceof String s ? '"' + s + '"' : String.valueOf(value);
    }
}
