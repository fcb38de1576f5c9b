package io.kraft.broker.protocol.schema;

/**
 * One field of a {@link StructSchema}: its name (as in the protocol guide), type, the versions in which
 * it exists, those in which it may be null, its default, and, for a tagged field (KIP-482), its tag and
 * the versions in which it is sent as a tagged field. Built by {@link FieldSpec}; hand these to
 * {@link Struct}'s accessors for name-free, checked access.
 */
public final class Field {
    private final String name;
    private final Type type;
    private final Versions versions;
    private final Versions nullableVersions;
    private final int tag;
    private final Versions taggedVersions;
    private final Object defaultValue;
    private final long defaultBits;
    private final boolean defaultsToNull;
    private final int index;
    private final int slot;
    private StructSchema owner;

    Field(FieldSpec spec, int index, int slot) {
        this.name = spec.name;
        this.type = spec.type;
        this.versions = spec.versions;
        this.nullableVersions = spec.nullableVersions;
        this.tag = spec.tag;
        this.taggedVersions = spec.tag >= 0 ? spec.versions : Versions.NONE;
        this.defaultValue = spec.resolvedDefault();
        this.defaultBits = storedAsLong() ? toBits(defaultValue) : 0L;
        this.defaultsToNull = spec.defaultsToNull();
        this.index = index;
        this.slot = slot;
    }

    void bind(StructSchema schema) {
        this.owner = schema;
    }

    public String name() {
        return name;
    }

    public Type type() {
        return type;
    }

    public Versions versions() {
        return versions;
    }

    public Versions nullableVersions() {
        return nullableVersions;
    }

    /** The tag, or -1 for a field that is never tagged. */
    public int tag() {
        return tag;
    }

    public Versions taggedVersions() {
        return taggedVersions;
    }

    /** Position of this field in its struct's declaration order. */
    public int index() {
        return index;
    }

    /** The struct type of a struct field or of an array-of-structs field's elements. */
    public StructSchema structSchema() {
        Type t = type instanceof ArrayType a ? a.element() : type;
        if (t instanceof StructSchema s) {
            return s;
        }
        throw new IllegalArgumentException("Field " + this + " of type " + type + " holds no structs");
    }

    /** The struct this field belongs to. */
    public StructSchema owner() {
        return owner;
    }

    /** The default value, boxed (numbers as their natural Java box, booleans as Boolean). */
    public Object defaultValue() {
        return defaultValue;
    }

    public boolean existsIn(short version) {
        return versions.contains(version);
    }

    public boolean isTaggedIn(short version) {
        return tag >= 0 && taggedVersions.contains(version);
    }

    public boolean isNullableIn(short version) {
        return nullableVersions.contains(version);
    }

    public boolean storedAsLong() {
        return type instanceof PrimitiveType p && p.storedAsLong();
    }

    int slot() {
        return slot;
    }

    /** A struct field whose default is null rather than an all-default struct. */
    boolean defaultsToNull() {
        return defaultsToNull;
    }

    long defaultBits() {
        return defaultBits;
    }

    /** Converts a boxed number/boolean to the raw long held in a struct slot. */
    long toBits(Object value) {
        PrimitiveType p = (PrimitiveType) type;
        if (p == PrimitiveType.BOOL) {
            if (value instanceof Boolean b) {
                return b ? 1 : 0;
            }
            throw new IllegalArgumentException("Field " + name + " takes a Boolean, not " + describe(value));
        }
        if (!(value instanceof Number n)) {
            throw new IllegalArgumentException("Field " + name + " takes a number, not " + describe(value));
        }
        if (p == PrimitiveType.FLOAT64) {
            return Double.doubleToRawLongBits(n.doubleValue());
        }
        long bits = n.longValue();
        checkRange(bits);
        return bits;
    }

    /** Converts a raw slot value back to its natural box. */
    Object fromBits(long bits) {
        return switch ((PrimitiveType) type) {
            case BOOL -> bits != 0;
            case INT8 -> (byte) bits;
            case INT16 -> (short) bits;
            case UINT16, INT32, VARINT -> (int) bits;
            case UINT32, INT64, VARLONG -> bits;
            case FLOAT64 -> Double.longBitsToDouble(bits);
            default -> throw new IllegalStateException("Field " + name + " is not numeric");
        };
    }

    void checkRange(long bits) {
        long min;
        long max;
        switch ((PrimitiveType) type) {
            case INT8 -> { min = Byte.MIN_VALUE; max = Byte.MAX_VALUE; }
            case INT16 -> { min = Short.MIN_VALUE; max = Short.MAX_VALUE; }
            case UINT16 -> { min = 0; max = 0xFFFF; }
            case INT32, VARINT -> { min = Integer.MIN_VALUE; max = Integer.MAX_VALUE; }
            case UINT32 -> { min = 0; max = 0xFFFFFFFFL; }
            case BOOL -> { min = 0; max = 1; }
            default -> { return; }
        }
        if (bits < min || bits > max) {
            throw new IllegalArgumentException("Value " + bits + " is out of range for " + type + " field " + name);
        }
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName();
    }

    @Override
    public String toString() {
        return (owner == null ? "" : owner.name() + ".") + name;
    }
}
