package io.kraft.broker.protocol.schema;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The one generic reader: walks a {@link MessageSchema} at a version and fills a {@link Struct}.
 * Every length is checked against the bytes left before anything is allocated, so a hostile count
 * cannot make it allocate; every problem surfaces as a {@link MalformedMessageException} naming the
 * field. Unknown tagged fields are skipped.
 */
public final class MessageReader {
    private MessageReader() {
    }

    /** Reads a body of {@code schema} at {@code version} from the buffer's position, advancing it. */
    public static Struct read(MessageSchema schema, short version, ByteBuffer in) {
        if (!schema.validVersions().contains(version)) {
            throw new IllegalArgumentException(schema.name() + " has no version " + version
                    + " (valid: " + schema.validVersions() + ")");
        }
        return readStruct(schema.root(), in, version, schema.isFlexible(version));
    }

    private static Struct readStruct(StructSchema schema, ByteBuffer in, short version, boolean flexible) {
        Struct struct = new Struct(schema);
        Field current = null;
        try {
            for (Field f : schema.fields()) {
                if (f.existsIn(version) && !f.isTaggedIn(version)) {
                    current = f;
                    readField(struct, f, in, version, flexible);
                }
            }
            current = null;
            if (flexible) {
                readTaggedFields(struct, schema, in, version);
            }
        } catch (BufferUnderflowException e) {
            String where = current == null ? "tagged fields of " + schema.name() : "field " + current;
            throw new MalformedMessageException("Truncated " + where + " at version " + version);
        }
        return struct;
    }

    private static void readTaggedFields(Struct struct, StructSchema schema, ByteBuffer in, short version) {
        int count = Varints.readUnsignedVarint(in);
        if (count < 0 || count > in.remaining()) {
            throw new MalformedMessageException("Struct " + schema.name() + " claims " + Integer.toUnsignedString(count)
                    + " tagged fields but only " + in.remaining() + " bytes remain");
        }
        for (int i = 0; i < count; i++) {
            int tag = Varints.readUnsignedVarint(in);
            int size = Varints.readUnsignedVarint(in);
            if (size < 0 || size > in.remaining()) {
                throw new MalformedMessageException("Tagged field " + Integer.toUnsignedString(tag) + " of "
                        + schema.name() + " declares " + Integer.toUnsignedString(size) + " bytes but only "
                        + in.remaining() + " remain");
            }
            Field f = tag < 0 ? null : schema.taggedField(tag, version);
            if (f != null) {
                ByteBuffer value = in.slice(in.position(), size);
                try {
                    readField(struct, f, value, version, true);
                } catch (BufferUnderflowException e) {
                    throw new MalformedMessageException("Tagged field " + f + " declares " + size
                            + " bytes, too few for its value");
                }
                if (value.hasRemaining()) {
                    throw new MalformedMessageException("Tagged field " + f + " declares " + size
                            + " bytes but its value takes " + value.position());
                }
            }
            in.position(in.position() + size);
        }
    }

    private static void readField(Struct struct, Field f, ByteBuffer in, short version, boolean flexible) {
        Type type = f.type();
        if (type instanceof PrimitiveType p && p.storedAsLong()) {
            struct.rawSetLong(f, readScalar(p, in));
        } else if (type instanceof StructSchema s && f.isNullableIn(version)) {
            // a nullable struct is preceded by a marker byte: negative for null
            struct.rawSetRef(f, in.get() < 0 ? null : readStruct(s, in, version, flexible));
        } else {
            struct.rawSetRef(f, readObject(f, type, in, version, flexible));
        }
    }

    private static long readScalar(PrimitiveType type, ByteBuffer in) {
        return switch (type) {
            case BOOL -> in.get() != 0 ? 1 : 0;
            case INT8 -> in.get();
            case INT16 -> in.getShort();
            case UINT16 -> in.getShort() & 0xFFFF;
            case INT32 -> in.getInt();
            case UINT32 -> in.getInt() & 0xFFFFFFFFL;
            case INT64, FLOAT64 -> in.getLong();
            case VARINT -> Varints.readVarint(in);
            case VARLONG -> Varints.readVarlong(in);
            default -> throw new IllegalStateException(type + " is not a scalar");
        };
    }

    private static Object readObject(Field f, Type type, ByteBuffer in, short version, boolean flexible) {
        if (type instanceof StructSchema s) {
            return readStruct(s, in, version, flexible);
        }
        if (type instanceof ArrayType a) {
            return readArray(f, a, in, version, flexible);
        }
        PrimitiveType p = (PrimitiveType) type;
        switch (p) {
            case UUID:
                return new UUID(in.getLong(), in.getLong());
            case STRING: {
                int length = flexible ? Varints.readUnsignedVarint(in) - 1 : in.getShort();
                if (length < 0) {
                    return nullOrThrow(f, length, version);
                }
                checkAvailable(f, length, in);
                return Utf8.read(in, length);
            }
            case BYTES:
            case RECORDS: {
                int length = flexible ? Varints.readUnsignedVarint(in) - 1 : in.getInt();
                if (length < 0) {
                    return nullOrThrow(f, length, version);
                }
                checkAvailable(f, length, in);
                ByteBuffer slice = in.slice(in.position(), length);
                in.position(in.position() + length);
                return slice;
            }
            default:
                return scalarBox(p, readScalar(p, in));
        }
    }

    private static Object scalarBox(PrimitiveType p, long bits) {
        return switch (p) {
            case BOOL -> bits != 0;
            case INT8 -> (byte) bits;
            case INT16 -> (short) bits;
            case UINT16, INT32, VARINT -> (int) bits;
            case FLOAT64 -> Double.longBitsToDouble(bits);
            default -> bits;
        };
    }

    private static List<Object> readArray(Field f, ArrayType type, ByteBuffer in, short version, boolean flexible) {
        int count = flexible ? Varints.readUnsignedVarint(in) - 1 : in.getInt();
        if (count < 0) {
            nullOrThrow(f, count, version);
            return null;
        }
        // Every element takes at least one byte, so a count above the bytes left is a lie; checking
        // first keeps a hostile count from allocating.
        if (count > in.remaining()) {
            throw new MalformedMessageException("Field " + f + " claims " + count + " elements but only "
                    + in.remaining() + " bytes remain");
        }
        // capacity is capped: memory then grows only with elements actually present
        List<Object> list = new ArrayList<>(Math.min(count, 256));
        Type element = type.element();
        for (int i = 0; i < count; i++) {
            list.add(readObject(f, element, in, version, flexible));
        }
        return list;
    }

    private static Object nullOrThrow(Field f, int length, short version) {
        if (length == -1 && f.isNullableIn(version)) {
            return null;
        }
        throw new MalformedMessageException(length == -1
                ? "Field " + f + " is null but not nullable at version " + version
                : "Field " + f + " has negative length " + length);
    }

    private static void checkAvailable(Field f, int length, ByteBuffer in) {
        if (length > in.remaining()) {
            throw new MalformedMessageException("Field " + f + " claims " + length + " bytes but only "
                    + in.remaining() + " remain");
        }
    }
}
