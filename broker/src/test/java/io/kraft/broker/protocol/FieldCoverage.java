package io.kraft.broker.protocol;

import io.kraft.generator.FieldSpec;
import io.kraft.generator.FieldType;
import io.kraft.generator.MessageSpec;
import io.kraft.generator.StructSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Proves a randomized test really populated a message: walks our generated objects through their getters, as
 * the spec describes them at the version, and records every field seen holding a value other than its default
 * (a new object's) and every nullable field seen null, so the test can demand that all were.
 */
final class FieldCoverage {
    private final MessageSpec message;
    private final short version;
    private final Set<String> populated = new HashSet<>();
    private final Set<String> sawNull = new HashSet<>();

    FieldCoverage(MessageSpec message, short version) {
        this.message = message;
        this.version = version;
    }

    void observe(Object body) {
        observe(body, message.body());
    }

    private void observe(Object struct, StructSpec spec) {
        Object fresh = SpecFields.construct(struct.getClass());
        for (FieldSpec f : spec.fields()) {
            if (!Specs.exists(f, version)) {
                continue;
            }
            Object value = SpecFields.get(struct, f);
            StructSpec nested = Specs.structOf(message, f);
            if (value == null) {
                sawNull.add(f.path());
            } else if (f.type() instanceof FieldType.ArrayOf) {
                List<?> list = (List<?>) value;
                if (!list.isEmpty()) {
                    populated.add(f.path());
                }
                if (nested != null) {
                    for (Object element : list) {
                        observe(element, nested);
                    }
                }
            } else if (nested != null) {
                populated.add(f.path()); // a struct counts by its own fields
                observe(value, nested);
            } else if (!Objects.equals(value, SpecFields.get(fresh, f))) {
                populated.add(f.path());
            }
        }
    }

    /** Fields of the version never seen populated, and nullable ones never seen null; empty when all were. */
    String missing() {
        StringBuilder sb = new StringBuilder();
        missing(message.body(), sb);
        return sb.toString();
    }

    private void missing(StructSpec spec, StringBuilder sb) {
        for (FieldSpec f : spec.fields()) {
            if (!Specs.exists(f, version)) {
                continue;
            }
            if (!populated.contains(f.path())) {
                sb.append(' ').append(f.path()).append("(value)");
            }
            if (Specs.nullable(f, version) && !sawNull.contains(f.path())) {
                sb.append(' ').append(f.path()).append("(null)");
            }
            StructSpec nested = Specs.structOf(message, f);
            if (nested != null) {
                missing(nested, sb);
            }
        }
    }
}
