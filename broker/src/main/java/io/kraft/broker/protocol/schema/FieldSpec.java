package io.kraft.broker.protocol.schema;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Builder for one field declaration. Fields exist in all versions ("0+") unless narrowed with
 * {@link #versions}; defaults follow the protocol's conventions (0, false, "", empty, zero UUID,
 * null records) unless set.
 */
public final class FieldSpec {
    static final ByteBuffer EMPTY_BYTES = ByteBuffer.allocate(0).asReadOnlyBuffer();
    static final java.util.UUID ZERO_UUID = new java.util.UUID(0L, 0L);

    final String name;
    final Type type;
    Versions versions = Versions.ALL;
    Versions nullableVersions = Versions.NONE;
    int tag = -1;
    private Object explicitDefault;
    private boolean hasExplicitDefault;

    private FieldSpec(String name, Type type) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("Field name must be non-empty");
        }
        this.name = name;
        this.type = type;
    }

    /** A scalar, string, bytes or records field. */
    public static FieldSpec field(String name, PrimitiveType type) {
        return new FieldSpec(name, type);
    }

    /** A nested struct (not an array). */
    public static FieldSpec struct(String name, StructSchema schema) {
        return new FieldSpec(name, schema);
    }

    /** An array of primitives. */
    public static FieldSpec array(String name, PrimitiveType element) {
        return new FieldSpec(name, new ArrayType(element));
    }

    /** An array of structs. */
    public static FieldSpec array(String name, StructSchema element) {
        return new FieldSpec(name, new ArrayType(element));
    }

    /** Versions in which the field exists, e.g. "3+" or "0-12". */
    public FieldSpec versions(String range) {
        this.versions = Versions.parse(range);
        return this;
    }

    /** Versions in which the field may be null. */
    public FieldSpec nullable(String range) {
        if (type instanceof PrimitiveType p && p.storedAsLong()) {
            throw new IllegalArgumentException("Field " + name + " of type " + type + " cannot be nullable");
        }
        this.nullableVersions = Versions.parse(range);
        return this;
    }

    /** Sends the field as tagged field {@code tag} in all versions in which it exists (which must be flexible). */
    public FieldSpec tagged(int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException("Tag of field " + name + " must be >= 0, got " + tag);
        }
        this.tag = tag;
        return this;
    }

    /** The default value: a Number or Boolean for scalars, a String, or null. */
    public FieldSpec defaultValue(Object value) {
        this.explicitDefault = value;
        this.hasExplicitDefault = true;
        return this;
    }

    /** Shorthand for a null default (strings, bytes, arrays). */
    public FieldSpec defaultNull() {
        return defaultValue(null);
    }

    /** Whether the declared default is null (for nullable structs, which otherwise default to an all-default struct). */
    boolean defaultsToNull() {
        return hasExplicitDefault && explicitDefault == null;
    }

    Object resolvedDefault() {
        if (hasExplicitDefault) {
            if (explicitDefault == null && nullableVersions.isEmpty()) {
                throw new IllegalArgumentException("Field " + name + " has a null default but is never nullable");
            }
            boolean scalar = type instanceof PrimitiveType p && p.storedAsLong();
            boolean string = type == PrimitiveType.STRING && explicitDefault instanceof String;
            if (explicitDefault != null && !scalar && !string) {
                throw new IllegalArgumentException("Field " + name + " cannot have default " + explicitDefault);
            }
            return normalize(explicitDefault);
        }
        if (type instanceof ArrayType) {
            return List.of();
        }
        if (type instanceof StructSchema) {
            return null; // a fresh default struct is created per Struct instance
        }
        return switch ((PrimitiveType) type) {
            case BOOL -> Boolean.FALSE;
            case INT8 -> (byte) 0;
            case INT16 -> (short) 0;
            case UINT16, INT32, VARINT -> 0;
            case UINT32, INT64, VARLONG -> 0L;
            case FLOAT64 -> 0.0d;
            case UUID -> ZERO_UUID;
            case STRING -> "";
            case BYTES -> EMPTY_BYTES;
            case RECORDS -> null;
        };
    }

    /** Boxes a numeric default in the field type's natural box, so defaults compare by equals. */
    private Object normalize(Object value) {
        if (!(type instanceof PrimitiveType p) || !p.storedAsLong() || value == null) {
            return value;
        }
        if (p == PrimitiveType.BOOL) {
            if (!(value instanceof Boolean)) {
                throw new IllegalArgumentException("Field " + name + " needs a Boolean default");
            }
            return value;
        }
        Number n = (Number) value;
        return switch (p) {
            case INT8 -> n.byteValue();
            case INT16 -> n.shortValue();
            case UINT16, INT32, VARINT -> n.intValue();
            case FLOAT64 -> n.doubleValue();
            default -> n.longValue();
        };
    }
}
