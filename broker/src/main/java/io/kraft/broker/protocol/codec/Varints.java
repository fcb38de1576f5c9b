package io.kraft.broker.protocol.codec;

import java.nio.ByteBuffer;

/**
 * Variable-length integers of the protocol: unsigned base-128 varints (compact lengths, tags, tag
 * sizes) and zig-zag signed varint/varlong. Reads advance the buffer; an over-long encoding is a
 * {@link MalformedMessageException}.
 */
public final class Varints {
    private Varints() {
    }

    /** Reads an unsigned varint of at most 5 bytes; values above 2^31-1 come back negative. */
    public static int readUnsignedVarint(ByteBuffer buf) {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = buf.get();
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                if (shift == 28 && (b & 0x70) != 0) {
                    throw new MalformedMessageException("unsigned varint overflows 32 bits");
                }
                return value;
            }
        }
        throw new MalformedMessageException("unsigned varint is longer than 5 bytes");
    }

    /** Reads an unsigned varlong of at most 10 bytes. */
    public static long readUnsignedVarlong(ByteBuffer buf) {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            byte b = buf.get();
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new MalformedMessageException("unsigned varlong is longer than 10 bytes");
    }

    /** Reads a zig-zag encoded signed 32-bit varint. */
    public static int readVarint(ByteBuffer buf) {
        int raw = readUnsignedVarint(buf);
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** Reads a zig-zag encoded signed 64-bit varlong. */
    public static long readVarlong(ByteBuffer buf) {
        long raw = readUnsignedVarlong(buf);
        return (raw >>> 1) ^ -(raw & 1);
    }

    public static void writeUnsignedVarint(int value, ByteBuffer buf) {
        while ((value & ~0x7F) != 0) {
            buf.put((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        buf.put((byte) value);
    }

    public static void writeUnsignedVarlong(long value, ByteBuffer buf) {
        while ((value & ~0x7FL) != 0) {
            buf.put((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        buf.put((byte) value);
    }

    public static void writeVarint(int value, ByteBuffer buf) {
        writeUnsignedVarint((value << 1) ^ (value >> 31), buf);
    }

    public static void writeVarlong(long value, ByteBuffer buf) {
        writeUnsignedVarlong((value << 1) ^ (value >> 63), buf);
    }

    public static int sizeOfUnsignedVarint(int value) {
        // 1 byte per started group of 7 bits; zero still takes one byte.
        int bits = 32 - Integer.numberOfLeadingZeros(value);
        return bits == 0 ? 1 : (bits + 6) / 7;
    }

    public static int sizeOfUnsignedVarlong(long value) {
        int bits = 64 - Long.numberOfLeadingZeros(value);
        return bits == 0 ? 1 : (bits + 6) / 7;
    }

    public static int sizeOfVarint(int value) {
        return sizeOfUnsignedVarint((value << 1) ^ (value >> 31));
    }

    public static int sizeOfVarlong(long value) {
        return sizeOfUnsignedVarlong((value << 1) ^ (value >> 63));
    }
}
