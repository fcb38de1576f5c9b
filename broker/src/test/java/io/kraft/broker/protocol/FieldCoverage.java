package io.kraft.broker.protocol;

import io.kraft.broker.protocol.schema.ArrayType;
import io.kraft.broker.protocol.schema.Field;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.protocol.schema.StructSchema;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Proves a randomized test really populated a message: records every field seen holding a
 * non-default value (and every nullable field seen null), so the test can demand full coverage.
 */
final class FieldCoverage {
    private final Set<Field> nonDefault = new LinkedHashSet<>();
    private final Set<Field> sawNull = new LinkedHashSet<>();

    void observe(Struct struct, short version) {
        for (Field f : struct.schema().fields()) {
            if (!f.existsIn(version)) {
                continue;
            }
            Object value = struct.get(f);
            if (value == null) {
                sawNull.add(f);
            } else if (f.type() instanceof StructSchema) {
                nonDefault.add(f); // coverage of a struct is the coverage of its fields
                observe((Struct) value, version);
            } else if (f.type() instanceof ArrayType a) {
                List<?> list = (List<?>) value;
                if (!list.isEmpty()) {
                    nonDefault.add(f);
                }
                if (a.element() instanceof StructSchema) {
                    for (Object item : list) {
                        observe((Struct) item, version);
                    }
                }
            } else if (!Objects.equals(value, f.defaultValue())) {
                nonDefault.add(f);
            }
        }
    }

    /** Fields existing at the version never seen non-default, or nullable ones never seen null. */
    String missing(MessageSchema schema, short version) {
        StringBuilder sb = new StringBuilder();
        collectMissing(schema.root(), version, sb);
        return sb.toString();
    }

    private void collectMissing(StructSchema schema, short version, StringBuilder sb) {
        for (Field f : schema.fields()) {
            if (!f.existsIn(version)) {
                continue;
            }
            if (!nonDefault.contains(f)) {
                sb.append(' ').append(f).append("(value)");
            }
            if (f.isNullableIn(version) && !sawNull.contains(f)) {
                sb.append(' ').append(f).append("(null)");
            }
            Field inner = f;
            if (f.type() instanceof StructSchema || f.type() instanceof ArrayType a && a.element() instanceof StructSchema) {
                collectMissing(inner.structSchema(), version, sb);
            }
        }
    }
}
