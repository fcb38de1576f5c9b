package io.kraft.broker.protocol.schema;

/**
 * The protocol's scalar types. Numeric types (and booleans and float64) are held in a {@link Struct}
 * as a raw {@code long}; the rest as objects. STRING, BYTES and RECORDS switch to their compact
 * encodings in flexible versions and to their nullable encodings where the field is nullable.
 */
public enum PrimitiveType implements Type {
    BOOL(1),
    INT8(1),
    INT16(2),
    UINT16(2),
    INT32(4),
    UINT32(4),
    INT64(8),
    VARINT(-1),
    VARLONG(-1),
    FLOAT64(8),
    UUID(16),
    STRING(-1),
    BYTES(-1),
    /** Nullable bytes holding record batches; read as a zero-copy slice of the input. */
    RECORDS(-1);

    private final int fixedSize;

    PrimitiveType(int fixedSize) {
        this.fixedSize = fixedSize;
    }

    /** Whether values live in a struct's primitive (long) slots. */
    public boolean storedAsLong() {
        return ordinal() <= FLOAT64.ordinal();
    }

    /** Size on the wire for fixed-size types, -1 otherwise. */
    public int fixedSize() {
        return fixedSize;
    }
}
