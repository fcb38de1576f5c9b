package io.kraft.broker.protocol.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An ordered list of fields: a message body or a nested struct. Precomputes the slot layout that
 * {@link Struct} uses, default values, and the tagged fields in tag order.
 */
public final class StructSchema implements Type {
    private final String name;
    private final List<Field> fields;
    private final Map<String, Field> byName;
    private final Field[] taggedByTag;
    private final Field[] nestedStructFields;
    private final long[] defaultLongs;
    private final Object[] defaultRefs;

    private StructSchema(String name, FieldSpec... specs) {
        this.name = name;
        List<Field> list = new ArrayList<>(specs.length);
        Map<String, Field> names = new HashMap<>();
        int longSlots = 0;
        int refSlots = 0;
        for (int i = 0; i < specs.length; i++) {
            FieldSpec spec = specs[i];
            boolean isLong = spec.type instanceof PrimitiveType p && p.storedAsLong();
            Field f = new Field(spec, i, isLong ? longSlots++ : refSlots++);
            if (names.put(f.name(), f) != null) {
                throw new IllegalArgumentException("Struct " + name + " declares field " + f.name() + " twice");
            }
            f.bind(this);
            list.add(f);
        }
        this.fields = Collections.unmodifiableList(list);
        this.byName = names;
        this.taggedByTag = list.stream().filter(f -> f.tag() >= 0)
                .sorted(Comparator.comparingInt(Field::tag)).toArray(Field[]::new);
        for (int i = 1; i < taggedByTag.length; i++) {
            Field a = taggedByTag[i - 1];
            Field b = taggedByTag[i];
            if (a.tag() == b.tag() && !a.taggedVersions().intersect(b.taggedVersions()).isEmpty()) {
                throw new IllegalArgumentException("Struct " + name + " uses tag " + a.tag() + " twice");
            }
        }
        this.nestedStructFields = list.stream().filter(f -> f.type() instanceof StructSchema).toArray(Field[]::new);
        this.defaultLongs = new long[longSlots];
        this.defaultRefs = new Object[refSlots];
        for (Field f : list) {
            if (f.storedAsLong()) {
                defaultLongs[f.slot()] = f.defaultBits();
            } else {
                defaultRefs[f.slot()] = f.defaultValue();
            }
        }
    }

    /** Declares a struct from its fields, in wire order. */
    public static StructSchema of(String name, FieldSpec... fields) {
        return new StructSchema(name, fields);
    }

    public String name() {
        return name;
    }

    /** Fields in declaration (wire) order. */
    public List<Field> fields() {
        return fields;
    }

    /** The field called {@code fieldName}; throws if there is none. */
    public Field field(String fieldName) {
        Field f = byName.get(fieldName);
        if (f == null) {
            throw new IllegalArgumentException("Struct " + name + " has no field " + fieldName);
        }
        return f;
    }

    /** The field with {@code tag} at {@code version}, or null when the tag is unknown there. */
    public Field taggedField(int tag, short version) {
        for (Field f : taggedByTag) {
            if (f.tag() == tag && f.isTaggedIn(version)) {
                return f;
            }
        }
        return null;
    }

    /** Tagged fields in ascending tag order (the order they are written). */
    Field[] taggedByTag() {
        return taggedByTag;
    }

    long[] newLongs() {
        return defaultLongs.length == 0 ? defaultLongs : defaultLongs.clone();
    }

    Object[] newRefs() {
        if (defaultRefs.length == 0) {
            return defaultRefs;
        }
        Object[] refs = defaultRefs.clone();
        for (Field f : nestedStructFields) {
            if (!f.defaultsToNull()) {
                refs[f.slot()] = new Struct((StructSchema) f.type());
            }
        }
        return refs;
    }

    @Override
    public String toString() {
        return name + Arrays.toString(fields.stream().map(Field::name).toArray());
    }
}
