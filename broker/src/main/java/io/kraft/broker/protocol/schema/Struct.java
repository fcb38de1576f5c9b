package io.kraft.broker.protocol.schema;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The value of a {@link StructSchema}: every field starts at its default (so fields absent at the
 * version read keep their defaults) and is read or set through its {@link Field} or by name.
 * Numbers, booleans and float64 live unboxed in one {@code long[]}; everything else in one
 * {@code Object[]}. Bytes and records read from the wire are slices of the input buffer (zero copy):
 * they stay valid only as long as that buffer's content does.
 */
public final class Struct {
    private final StructSchema schema;
    private final long[] longs;
    private final Object[] refs;

    public Struct(StructSchema schema) {
        this.schema = schema;
        this.longs = schema.newLongs();
        this.refs = schema.newRefs();
    }

    public StructSchema schema() {
        return schema;
    }

    // ---- typed access by Field -------------------------------------------------------------

    public long getLong(Field f) {
        return longs[longSlot(f)];
    }

    public int getInt(Field f) {
        return (int) longs[longSlot(f)];
    }

    public short getShort(Field f) {
        return (short) longs[longSlot(f)];
    }

    public byte getByte(Field f) {
        return (byte) longs[longSlot(f)];
    }

    public boolean getBoolean(Field f) {
        return longs[longSlot(f)] != 0;
    }

    public double getDouble(Field f) {
        return Double.longBitsToDouble(longs[longSlot(f)]);
    }

    public String getString(Field f) {
        return (String) refs[refSlot(f)];
    }

    /** Bytes (or records) as a buffer; callers must not move its position if they re-read it. */
    public ByteBuffer getBytes(Field f) {
        return (ByteBuffer) refs[refSlot(f)];
    }

    /** A RECORDS field read from the wire: record batches as a zero-copy slice, possibly null. */
    public ByteBuffer getRecords(Field f) {
        Object value = refs[refSlot(f)];
        if (value instanceof ExternalRecords) {
            throw new IllegalStateException("Field " + f + " holds external records, not bytes");
        }
        return (ByteBuffer) value;
    }

    public UUID getUuid(Field f) {
        return (UUID) refs[refSlot(f)];
    }

    public Struct getStruct(Field f) {
        return (Struct) refs[refSlot(f)];
    }

    /** An array field of structs (null only where the field is nullable). */
    @SuppressWarnings("unchecked")
    public List<Struct> getStructs(Field f) {
        return (List<Struct>) refs[refSlot(f)];
    }

    /** An array field of primitives: Integer, Long, String, ... per the element type. */
    @SuppressWarnings("unchecked")
    public <T> List<T> getList(Field f) {
        return (List<T>) refs[refSlot(f)];
    }

    /** The value of the field at {@code index} in declaration order, boxed. */
    public Object get(int index) {
        return get(schema.fields().get(index));
    }

    /** The value boxed, whatever the type. */
    public Object get(Field f) {
        check(f);
        return f.storedAsLong() ? f.fromBits(longs[f.slot()]) : refs[f.slot()];
    }

    public Struct setLong(Field f, long value) {
        int slot = longSlot(f);
        f.checkRange(value);
        longs[slot] = value;
        return this;
    }

    public Struct setInt(Field f, int value) {
        return setLong(f, value);
    }

    public Struct setShort(Field f, short value) {
        return setLong(f, value);
    }

    public Struct setByte(Field f, byte value) {
        return setLong(f, value);
    }

    public Struct setBoolean(Field f, boolean value) {
        longs[longSlot(f)] = value ? 1 : 0;
        return this;
    }

    public Struct setDouble(Field f, double value) {
        longs[longSlot(f)] = Double.doubleToRawLongBits(value);
        return this;
    }

    /** Sets any field from a boxed value; checks the value's class against the field type. */
    public Struct set(Field f, Object value) {
        check(f);
        if (f.storedAsLong()) {
            longs[f.slot()] = f.toBits(value);
        } else {
            checkRefType(f, value);
            refs[f.slot()] = value;
        }
        return this;
    }

    /** Appends a new default-valued element to an array-of-structs field and returns it. */
    public Struct addStruct(Field f) {
        int slot = refSlot(f);
        if (!(f.type() instanceof ArrayType a) || !(a.element() instanceof StructSchema element)) {
            throw new IllegalArgumentException("Field " + f + " is not an array of structs");
        }
        Struct child = new Struct(element);
        mutableList(slot).add(child);
        return child;
    }

    /** Appends a value to an array-of-primitives field. */
    public Struct addToList(Field f, Object value) {
        int slot = refSlot(f);
        if (!(f.type() instanceof ArrayType a) || !(a.element() instanceof PrimitiveType)) {
            throw new IllegalArgumentException("Field " + f + " is not an array of primitives");
        }
        mutableList(slot).add(value);
        return this;
    }

    // ---- access by name ---------------------------------------------------------------------

    public Field field(String name) {
        return schema.field(name);
    }

    public Object get(String name) {
        return get(schema.field(name));
    }

    public long getLong(String name) {
        return getLong(schema.field(name));
    }

    public int getInt(String name) {
        return getInt(schema.field(name));
    }

    public short getShort(String name) {
        return getShort(schema.field(name));
    }

    public byte getByte(String name) {
        return getByte(schema.field(name));
    }

    public boolean getBoolean(String name) {
        return getBoolean(schema.field(name));
    }

    public String getString(String name) {
        return getString(schema.field(name));
    }

    public ByteBuffer getBytes(String name) {
        return getBytes(schema.field(name));
    }

    public UUID getUuid(String name) {
        return getUuid(schema.field(name));
    }

    public Struct getStruct(String name) {
        return getStruct(schema.field(name));
    }

    public List<Struct> getStructs(String name) {
        return getStructs(schema.field(name));
    }

    public <T> List<T> getList(String name) {
        return getList(schema.field(name));
    }

    public Struct set(String name, Object value) {
        return set(schema.field(name), value);
    }

    public Struct addStruct(String name) {
        return addStruct(schema.field(name));
    }

    // ---- used by the reader and writer -------------------------------------------------------

    long rawLong(Field f) {
        return longs[f.slot()];
    }

    void rawSetLong(Field f, long bits) {
        longs[f.slot()] = bits;
    }

    Object rawRef(Field f) {
        return refs[f.slot()];
    }

    void rawSetRef(Field f, Object value) {
        refs[f.slot()] = value;
    }

    /** Whether the field holds its default, i.e. a tagged field need not be sent. */
    boolean isDefault(Field f) {
        if (f.storedAsLong()) {
            return longs[f.slot()] == f.defaultBits();
        }
        Object v = refs[f.slot()];
        if (f.type() instanceof StructSchema) {
            if (f.defaultsToNull()) {
                return v == null;
            }
            return v == null || ((Struct) v).isAllDefault();
        }
        return Objects.equals(v, f.defaultValue());
    }

    private boolean isAllDefault() {
        for (Field f : schema.fields()) {
            if (!isDefault(f)) {
                return false;
            }
        }
        return true;
    }

    // ---- checks -------------------------------------------------------------------------------

    private void check(Field f) {
        if (f.owner() != schema) {
            throw new IllegalArgumentException("Field " + f + " does not belong to struct " + schema.name());
        }
    }

    private int longSlot(Field f) {
        check(f);
        if (!f.storedAsLong()) {
            throw new IllegalArgumentException("Field " + f + " of type " + f.type() + " is not numeric");
        }
        return f.slot();
    }

    private int refSlot(Field f) {
        check(f);
        if (f.storedAsLong()) {
            throw new IllegalArgumentException("Field " + f + " of type " + f.type() + " is numeric");
        }
        return f.slot();
    }

    @SuppressWarnings("unchecked")
    private List<Object> mutableList(int slot) {
        Object current = refs[slot];
        if (current instanceof ArrayList<?> list) {
            return (List<Object>) list;
        }
        List<Object> copy = current == null ? new ArrayList<>() : new ArrayList<>((List<Object>) current);
        refs[slot] = copy;
        return copy;
    }

    private static void checkRefType(Field f, Object value) {
        if (value == null) {
            if (f.nullableVersions().isEmpty()) {
                throw new IllegalArgumentException("Field " + f + " is never nullable");
            }
            return;
        }
        Type t = f.type();
        boolean ok;
        if (t instanceof ArrayType) {
            ok = value instanceof List;
        } else if (t instanceof StructSchema s) {
            ok = value instanceof Struct v && v.schema() == s;
        } else {
            ok = switch ((PrimitiveType) t) {
                case STRING -> value instanceof String;
                case BYTES -> value instanceof ByteBuffer;
                case RECORDS -> value instanceof ByteBuffer || value instanceof ExternalRecords;
                case UUID -> value instanceof UUID;
                default -> false;
            };
        }
        if (!ok) {
            throw new IllegalArgumentException("Field " + f + " of type " + t + " cannot hold a "
                    + value.getClass().getSimpleName());
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Struct other) || other.schema != schema) {
            return false;
        }
        return Arrays.equals(longs, other.longs) && Arrays.equals(refs, other.refs);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(longs) + Arrays.hashCode(refs);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(schema.name()).append('(');
        List<Field> fields = schema.fields();
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            sb.append(i == 0 ? "" : ", ").append(f.name()).append('=').append(get(f));
        }
        return sb.append(')').toString();
    }
}
