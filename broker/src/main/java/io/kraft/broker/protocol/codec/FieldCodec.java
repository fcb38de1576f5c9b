package io.kraft.broker.protocol.codec;

import io.kraft.broker.protocol.codec.ExternalRecords;
import io.kraft.broker.protocol.codec.MalformedMessageException;
import io.kraft.broker.protocol.codec.RecordsSink;
import io.kraft.broker.protocol.codec.Utf8;
import io.kraft.broker.protocol.codec.Varints;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

/**
 * The protocol's variable-length encodings for generated message classes: strings, bytes, records
 * and array lengths in their classic and compact (KIP-482) forms, and tagged-field headers. Reads
 * check every length against the bytes left before allocating and throw only
 * {@link MalformedMessageException} for bad input; writes refuse a null where it is not allowed.
 * Field names are passed in for error messages only.
 */
public final class FieldCodec {
    /** The default of uuid fields. */
    public static final UUID ZERO_UUID = new UUID(0L, 0L);
    /** The default of bytes fields (read-only and empty, so safe to share). */
    public static final ByteBuffer EMPTY_BYTES = ByteBuffer.allocate(0).asReadOnlyBuffer();

    /** Array capacity reserved up front: memory then grows only with elements actually present. */
    private static final int MAX_INITIAL_CAPACITY = 256;

    private FieldCodec() {
    }

    public static void checkVersion(short version, short lowest, short highest, String message) {
        if (version < lowest || version > highest) {
            throw new IllegalArgumentException(message + " has no version " + version + " (valid: " + lowest + "-"
                    + highest + ")");
        }
    }

    // ---- reading ---------------------------------------------------------------------------------

    public static MalformedMessageException truncated(String struct, short version) {
        return new MalformedMessageException("Truncated " + struct + " at version " + version);
    }

    public static String readString(ByteBuffer in, boolean compact, boolean nullable, String field) {
        int length = compact ? Varints.readUnsignedVarint(in) - 1 : in.getShort();
        if (length < 0) {
            return nullOrThrow(length, nullable, field);
        }
        checkAvailable(length, in, field);
        return Utf8.read(in, length);
    }

    /** Bytes or records: a zero-copy slice of {@code in}, or null. */
    public static ByteBuffer readBytes(ByteBuffer in, boolean compact, boolean nullable, String field) {
        int length = compact ? Varints.readUnsignedVarint(in) - 1 : in.getInt();
        if (length < 0) {
            return nullOrThrow(length, nullable, field);
        }
        checkAvailable(length, in, field);
        ByteBuffer slice = in.slice(in.position(), length);
        in.position(in.position() + length);
        return slice;
    }

    public static UUID readUuid(ByteBuffer in) {
        long most = in.getLong();
        return new UUID(most, in.getLong());
    }

    /**
     * An array's element count, or -1 for a null array; never more than the bytes left, and charged to the
     * thread's {@link ParseBudget} at {@code elementHeapBytes} per element before anything is allocated.
     */
    public static int readArrayLength(ByteBuffer in, boolean compact, boolean nullable, String field,
                                      int elementHeapBytes) {
        int count = readArrayLength(in, compact, nullable, field);
        if (count > 0) {
            ParseBudget.charge((long) count * elementHeapBytes, count, field);
        }
        return count;
    }

    /** An array's element count, or -1 for a null array; never more than the bytes left. */
    public static int readArrayLength(ByteBuffer in, boolean compact, boolean nullable, String field) {
        int count = compact ? Varints.readUnsignedVarint(in) - 1 : in.getInt();
        if (count < 0) {
            nullOrThrow(count, nullable, field);
            return -1;
        }
        // every element takes at least one byte, so a count above the bytes left is a lie
        if (count > in.remaining()) {
            throw new MalformedMessageException("Field " + field + " claims " + count + " elements but only "
                    + in.remaining() + " bytes remain");
        }
        return count;
    }

    public static int initialCapacity(int count) {
        return Math.min(count, MAX_INITIAL_CAPACITY);
    }

    public static int readTaggedFieldCount(ByteBuffer in, String struct) {
        int count = Varints.readUnsignedVarint(in);
        if (count < 0 || count > in.remaining()) {
            throw new MalformedMessageException("Struct " + struct + " claims " + Integer.toUnsignedString(count)
                    + " tagged fields but only " + in.remaining() + " bytes remain");
        }
        return count;
    }

    public static int readTaggedFieldSize(ByteBuffer in, int tag, String struct) {
        int size = Varints.readUnsignedVarint(in);
        if (size < 0 || size > in.remaining()) {
            throw new MalformedMessageException("Tagged field " + Integer.toUnsignedString(tag) + " of " + struct
                    + " declares " + Integer.toUnsignedString(size) + " bytes but only " + in.remaining() + " remain");
        }
        return size;
    }

    /** A known tagged field's value must take exactly the bytes its header declared. */
    public static void checkTaggedFieldConsumed(ByteBuffer value, String field) {
        if (value.hasRemaining()) {
            throw new MalformedMessageException("Tagged field " + field + " declares " + value.limit()
                    + " bytes but its value takes " + value.position());
        }
    }

    private static <T> T nullOrThrow(int length, boolean nullable, String field) {
        if (length == -1 && nullable) {
            return null;
        }
        throw new MalformedMessageException(length == -1
                ? "Field " + field + " is null but not nullable at this version"
                : "Field " + field + " has negative length " + length);
    }

    private static void checkAvailable(int length, ByteBuffer in, String field) {
        if (length > in.remaining()) {
            throw new MalformedMessageException("Field " + field + " claims " + length + " bytes but only "
                    + in.remaining() + " remain");
        }
    }

    // ---- sizing and writing --------------------------------------------------------------------------

    public static <T> T requireNonNull(T value, String field) {
        if (value == null) {
            throw notNullable(field);
        }
        return value;
    }

    public static int sizeOfString(String s, boolean compact, boolean nullable, String field) {
        if (s == null) {
            checkNullable(nullable, field);
            return compact ? 1 : 2;
        }
        int length = Utf8.encodedLength(s);
        if (compact) {
            return Varints.sizeOfUnsignedVarint(length + 1) + length;
        }
        checkInt16Length(length, field);
        return 2 + length;
    }

    public static void writeString(ByteBuffer out, String s, boolean compact, boolean nullable, String field) {
        if (s == null) {
            checkNullable(nullable, field);
            writeLength(out, -1, compact, true);
            return;
        }
        int length = Utf8.encodedLength(s);
        if (!compact) {
            checkInt16Length(length, field);
        }
        writeLength(out, length, compact, true);
        Utf8.write(s, out);
    }

    public static int sizeOfBytes(ByteBuffer b, boolean compact, boolean nullable, String field) {
        if (b == null) {
            checkNullable(nullable, field);
            return compact ? 1 : 4;
        }
        return sizeOfLength(b.remaining(), compact) + b.remaining();
    }

    public static void writeBytes(ByteBuffer out, ByteBuffer b, boolean compact, boolean nullable, String field) {
        if (b == null) {
            checkNullable(nullable, field);
            writeLength(out, -1, compact, false);
            return;
        }
        writeLength(out, b.remaining(), compact, false);
        out.put(b.duplicate());
    }

    /** A records field holds bytes, external records, or neither (null). */
    public static int sizeOfRecords(ByteBuffer b, ExternalRecords external, boolean compact, boolean nullable,
                                    String field) {
        if (external == null) {
            return sizeOfBytes(b, compact, nullable, field);
        }
        int length = external.sizeInBytes();
        return sizeOfLength(length, compact) + length;
    }

    /** Writes the length prefix of external records and reports where their bytes belong to {@code sink}. */
    public static void writeRecords(ByteBuffer out, ByteBuffer b, ExternalRecords external, boolean compact,
                                    boolean nullable, RecordsSink sink, String field) {
        if (external == null) {
            writeBytes(out, b, compact, nullable, field);
            return;
        }
        if (sink == null) {
            throw new IllegalStateException("Field " + field + " holds external records; write with a RecordsSink");
        }
        writeLength(out, external.sizeInBytes(), compact, false);
        sink.records(out.position(), external);
    }

    public static int sizeOfArrayLength(List<?> list, boolean compact, boolean nullable, String field) {
        if (list == null) {
            checkNullable(nullable, field);
            return compact ? 1 : 4;
        }
        return sizeOfLength(list.size(), compact);
    }

    public static void writeArrayLength(ByteBuffer out, List<?> list, boolean compact, boolean nullable, String field) {
        if (list == null) {
            checkNullable(nullable, field);
            writeLength(out, -1, compact, false);
        } else {
            writeLength(out, list.size(), compact, false);
        }
    }

    public static void writeUuid(ByteBuffer out, UUID uuid) {
        out.putLong(uuid.getMostSignificantBits());
        out.putLong(uuid.getLeastSignificantBits());
    }

    /** Classic lengths are int32 (int16 for strings); compact ones are an unsigned varint of N+1, 0 for null. */
    private static void writeLength(ByteBuffer out, int length, boolean compact, boolean int16) {
        if (compact) {
            Varints.writeUnsignedVarint(length + 1, out);
        } else if (int16) {
            out.putShort((short) length);
        } else {
            out.putInt(length);
        }
    }

    private static int sizeOfLength(int length, boolean compact) {
        return compact ? Varints.sizeOfUnsignedVarint(length + 1) : 4;
    }

    private static void checkInt16Length(int length, String field) {
        if (length > Short.MAX_VALUE) {
            throw new IllegalArgumentException("Field " + field + " is " + length + " bytes, over the int16 limit");
        }
    }

    private static void checkNullable(boolean nullable, String field) {
        if (!nullable) {
            throw notNullable(field);
        }
    }

    private static IllegalArgumentException notNullable(String field) {
        return new IllegalArgumentException("Field " + field + " is null but not nullable at this version");
    }

    // ---- rendering -----------------------------------------------------------------------------------

    /** Bytes in toString: their size, not their content. */
    public static String describe(ByteBuffer b) {
        return b == null ? "null" : "bytes(" + b.remaining() + ")";
    }

    public static String describeRecords(ByteBuffer b, ExternalRecords external) {
        return external != null ? "external(" + external.sizeInBytes() + " bytes)" : describe(b);
    }
}
