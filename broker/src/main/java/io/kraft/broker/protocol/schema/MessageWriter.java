package io.kraft.broker.protocol.schema;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

/**
 * The one generic writer: walks a {@link MessageSchema} at a version and writes a {@link Struct}.
 * {@link #sizeOf} gives the exact size first so a response can be framed in one buffer. Fields that
 * do not exist at the version are not written (handlers may fill a superset); tagged fields holding
 * their default are omitted, as KIP-482 specifies.
 */
public final class MessageWriter {
    private MessageWriter() {
    }

    /** Exact number of bytes {@link #write} will produce. */
    public static int sizeOf(MessageSchema schema, Struct body, short version) {
        check(schema, body, version);
        return sizeOfStruct(body, version, schema.isFlexible(version));
    }

    /** Writes the body at the buffer's position; the buffer must have {@link #sizeOf} bytes left. */
    public static void write(MessageSchema schema, Struct body, short version, ByteBuffer out) {
        write(schema, body, version, out, null);
    }

    /**
     * Writes the body, leaving out the bytes of every {@link ExternalRecords} value and reporting
     * where each belongs to {@code sink}; the buffer needs {@link #sizeOf} minus their sizes.
     */
    public static void write(MessageSchema schema, Struct body, short version, ByteBuffer out, RecordsSink sink) {
        check(schema, body, version);
        writeStruct(body, out, version, schema.isFlexible(version), sink);
    }

    /** Writes the body into a new heap buffer, flipped for reading. */
    public static ByteBuffer toBuffer(MessageSchema schema, Struct body, short version) {
        ByteBuffer out = ByteBuffer.allocate(sizeOf(schema, body, version));
        write(schema, body, version, out);
        return out.flip();
    }

    private static void check(MessageSchema schema, Struct body, short version) {
        if (body.schema() != schema.root()) {
            throw new IllegalArgumentException("Struct " + body.schema().name() + " is not a body of " + schema.name());
        }
        if (!schema.validVersions().contains(version)) {
            throw new IllegalArgumentException(schema.name() + " has no version " + version
                    + " (valid: " + schema.validVersions() + ")");
        }
    }

    // ---- size ---------------------------------------------------------------------------------

    private static int sizeOfStruct(Struct struct, short version, boolean flexible) {
        int size = 0;
        for (Field f : struct.schema().fields()) {
            if (f.existsIn(version) && !f.isTaggedIn(version)) {
                size += sizeOfField(struct, f, version, flexible);
            }
        }
        if (flexible) {
            int count = 0;
            for (Field f : struct.schema().taggedByTag()) {
                if (f.isTaggedIn(version) && !struct.isDefault(f)) {
                    count++;
                    int valueSize = sizeOfField(struct, f, version, true);
                    size += Varints.sizeOfUnsignedVarint(f.tag()) + Varints.sizeOfUnsignedVarint(valueSize) + valueSize;
                }
            }
            size += Varints.sizeOfUnsignedVarint(count);
        }
        return size;
    }

    private static int sizeOfField(Struct struct, Field f, short version, boolean flexible) {
        Type type = f.type();
        if (type instanceof PrimitiveType p && p.storedAsLong()) {
            return sizeOfScalar(p, struct.rawLong(f));
        }
        if (type instanceof StructSchema && f.isNullableIn(version)) {
            Struct value = (Struct) struct.rawRef(f);
            return 1 + (value == null ? 0 : sizeOfStruct(value, version, flexible));
        }
        return sizeOfObject(f, type, struct.rawRef(f), version, flexible);
    }

    private static int sizeOfScalar(PrimitiveType p, long bits) {
        return switch (p) {
            case VARINT -> Varints.sizeOfVarint((int) bits);
            case VARLONG -> Varints.sizeOfVarlong(bits);
            default -> p.fixedSize();
        };
    }

    private static int sizeOfObject(Field f, Type type, Object value, short version, boolean flexible) {
        if (type instanceof StructSchema) {
            return sizeOfStruct(nonNull(f, (Struct) value, version), version, flexible);
        }
        if (type instanceof ArrayType a) {
            List<?> list = (List<?>) value;
            if (list == null) {
                checkNullable(f, version);
                return flexible ? 1 : 4;
            }
            int size = flexible ? Varints.sizeOfUnsignedVarint(list.size() + 1) : 4;
            Type element = a.element();
            for (Object item : list) {
                size += sizeOfObject(f, element, item, version, flexible);
            }
            return size;
        }
        PrimitiveType p = (PrimitiveType) type;
        switch (p) {
            case UUID:
                return 16;
            case STRING: {
                if (value == null) {
                    checkNullable(f, version);
                    return flexible ? 1 : 2;
                }
                int length = Utf8.encodedLength((String) value);
                if (!flexible && length > Short.MAX_VALUE) {
                    throw new IllegalArgumentException("Field " + f + " is " + length + " bytes, over the int16 limit");
                }
                return (flexible ? Varints.sizeOfUnsignedVarint(length + 1) : 2) + length;
            }
            case BYTES:
            case RECORDS: {
                if (value == null) {
                    checkNullable(f, version);
                    return flexible ? 1 : 4;
                }
                int length = value instanceof ExternalRecords external
                        ? external.sizeInBytes() : ((ByteBuffer) value).remaining();
                return (flexible ? Varints.sizeOfUnsignedVarint(length + 1) : 4) + length;
            }
            default:
                return sizeOfScalar(p, boxToBits(f, p, value));
        }
    }

    // ---- write --------------------------------------------------------------------------------

    private static void writeStruct(Struct struct, ByteBuffer out, short version, boolean flexible, RecordsSink sink) {
        for (Field f : struct.schema().fields()) {
            if (f.existsIn(version) && !f.isTaggedIn(version)) {
                writeField(struct, f, out, version, flexible, sink);
            }
        }
        if (flexible) {
            Field[] tagged = struct.schema().taggedByTag();
            int count = 0;
            for (Field f : tagged) {
                if (f.isTaggedIn(version) && !struct.isDefault(f)) {
                    count++;
                }
            }
            Varints.writeUnsignedVarint(count, out);
            for (Field f : tagged) {
                if (f.isTaggedIn(version) && !struct.isDefault(f)) {
                    Varints.writeUnsignedVarint(f.tag(), out);
                    Varints.writeUnsignedVarint(sizeOfField(struct, f, version, true), out);
                    writeField(struct, f, out, version, true, sink);
                }
            }
        }
    }

    private static void writeField(Struct struct, Field f, ByteBuffer out, short version, boolean flexible,
                                   RecordsSink sink) {
        Type type = f.type();
        if (type instanceof PrimitiveType p && p.storedAsLong()) {
            writeScalar(p, struct.rawLong(f), out);
        } else if (type instanceof StructSchema && f.isNullableIn(version)) {
            Struct value = (Struct) struct.rawRef(f);
            out.put((byte) (value == null ? -1 : 1));
            if (value != null) {
                writeStruct(value, out, version, flexible, sink);
            }
        } else {
            writeObject(f, type, struct.rawRef(f), out, version, flexible, sink);
        }
    }

    private static void writeScalar(PrimitiveType p, long bits, ByteBuffer out) {
        switch (p) {
            case BOOL, INT8 -> out.put((byte) bits);
            case INT16, UINT16 -> out.putShort((short) bits);
            case INT32, UINT32 -> out.putInt((int) bits);
            case INT64, FLOAT64 -> out.putLong(bits);
            case VARINT -> Varints.writeVarint((int) bits, out);
            case VARLONG -> Varints.writeVarlong(bits, out);
            default -> throw new IllegalStateException(p + " is not a scalar");
        }
    }

    private static void writeObject(Field f, Type type, Object value, ByteBuffer out, short version, boolean flexible,
                                    RecordsSink sink) {
        if (type instanceof StructSchema) {
            writeStruct(nonNull(f, (Struct) value, version), out, version, flexible, sink);
            return;
        }
        if (type instanceof ArrayType a) {
            List<?> list = (List<?>) value;
            if (list == null) {
                checkNullable(f, version);
                writeLength(-1, flexible, false, out);
                return;
            }
            writeLength(list.size(), flexible, false, out);
            Type element = a.element();
            for (Object item : list) {
                writeObject(f, element, item, out, version, flexible, sink);
            }
            return;
        }
        PrimitiveType p = (PrimitiveType) type;
        switch (p) {
            case UUID -> {
                UUID uuid = (UUID) value;
                out.putLong(uuid.getMostSignificantBits());
                out.putLong(uuid.getLeastSignificantBits());
            }
            case STRING -> {
                if (value == null) {
                    checkNullable(f, version);
                    writeLength(-1, flexible, true, out);
                } else {
                    String s = (String) value;
                    writeLength(Utf8.encodedLength(s), flexible, true, out);
                    Utf8.write(s, out);
                }
            }
            case BYTES, RECORDS -> {
                if (value == null) {
                    checkNullable(f, version);
                    writeLength(-1, flexible, false, out);
                } else if (value instanceof ExternalRecords external) {
                    writeLength(external.sizeInBytes(), flexible, false, out);
                    if (sink == null) {
                        throw new IllegalStateException("Field " + f + " holds external records; write with a RecordsSink");
                    }
                    sink.records(out.position(), external);
                } else {
                    ByteBuffer bytes = (ByteBuffer) value;
                    writeLength(bytes.remaining(), flexible, false, out);
                    out.put(bytes.duplicate());
                }
            }
            default -> writeScalar(p, boxToBits(f, p, value), out);
        }
    }

    /** Classic lengths are int16 (strings) or int32; compact ones are uvarint N+1 with 0 for null. */
    private static void writeLength(int length, boolean flexible, boolean int16, ByteBuffer out) {
        if (flexible) {
            Varints.writeUnsignedVarint(length + 1, out);
        } else if (int16) {
            out.putShort((short) length);
        } else {
            out.putInt(length);
        }
    }

    private static long boxToBits(Field f, PrimitiveType p, Object value) {
        if (value == null) {
            throw new IllegalArgumentException("Array " + f + " holds a null " + p);
        }
        return switch (p) {
            case BOOL -> ((Boolean) value) ? 1 : 0;
            case FLOAT64 -> Double.doubleToRawLongBits(((Number) value).doubleValue());
            default -> ((Number) value).longValue();
        };
    }

    private static Struct nonNull(Field f, Struct value, short version) {
        if (value == null) {
            throw new IllegalArgumentException("Field " + f + " is null but not nullable at version " + version);
        }
        return value;
    }

    private static void checkNullable(Field f, short version) {
        if (!f.isNullableIn(version)) {
            throw new IllegalArgumentException("Field " + f + " is null but not nullable at version " + version);
        }
    }
}
