package io.kraft.storage.record;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Variable-length integers as the Kafka protocol and record format use them: unsigned base-128
 * varints (7 bits a byte, low group first, high bit = more follows) and signed zig-zag varints
 * ("varint"/"varlong" in the protocol guide), read from and written to buffers.
 *
 * <p>Reads advance the buffer's position. A truncated input throws {@link BufferUnderflowException};
 * an encoding longer than the type allows (more than 5 bytes for 32 bits, 10 for 64) throws
 * {@link IllegalArgumentException}. Callers that parse untrusted record data translate both.
 */
public final class Varint {
    /** Longest encoding of a 32-bit value. */
    public static final int MAX_VARINT_BYTES = 5;
    /** Longest encoding of a 64-bit value. */
    public static final int MAX_VARLONG_BYTES = 10;

    private static final int MORE = 0x80;
    private static final int BITS = 0x7F;

    private Varint() {
    }

    /** Reads an unsigned varint that must fit in 32 bits. */
    public static int readUnsignedVarint(ByteBuffer buffer) {
        int result = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = buffer.get();
            result |= (b & BITS) << shift;
            if ((b & MORE) == 0) {
                return result;
            }
        }
        throw new IllegalArgumentException("varint is longer than " + MAX_VARINT_BYTES + " bytes");
    }

    /** Reads an unsigned varint that must fit in 64 bits. */
    public static long readUnsignedVarlong(ByteBuffer buffer) {
        long result = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            long b = buffer.get();
            result |= (b & BITS) << shift;
            if ((b & MORE) == 0) {
                return result;
            }
        }
        throw new IllegalArgumentException("varlong is longer than " + MAX_VARLONG_BYTES + " bytes");
    }

    /** Reads a zig-zag signed 32-bit varint. */
    public static int readVarint(ByteBuffer buffer) {
        return zigZagDecode(readUnsignedVarint(buffer));
    }

    /** Reads a zig-zag signed 64-bit varlong. */
    public static long readVarlong(ByteBuffer buffer) {
        return zigZagDecode(readUnsignedVarlong(buffer));
    }

    /** Writes {@code value} as an unsigned varint (negative ints take all 5 bytes). */
    public static void writeUnsignedVarint(int value, ByteBuffer buffer) {
        int v = value;
        while ((v & ~BITS) != 0) {
            buffer.put((byte) ((v & BITS) | MORE));
            v >>>= 7;
        }
        buffer.put((byte) v);
    }

    /** Writes {@code value} as an unsigned varlong (negative longs take all 10 bytes). */
    public static void writeUnsignedVarlong(long value, ByteBuffer buffer) {
        long v = value;
        while ((v & ~((long) BITS)) != 0) {
            buffer.put((byte) ((v & BITS) | MORE));
            v >>>= 7;
        }
        buffer.put((byte) v);
    }

    public static void writeVarint(int value, ByteBuffer buffer) {
        writeUnsignedVarint(zigZagEncode(value), buffer);
    }

    public static void writeVarlong(long value, ByteBuffer buffer) {
        writeUnsignedVarlong(zigZagEncode(value), buffer);
    }

    /** Writes an unsigned varint to a stream (for encoders that do not hold a buffer). */
    public static void writeUnsignedVarint(int value, OutputStream out) throws IOException {
        int v = value;
        while ((v & ~BITS) != 0) {
            out.write((v & BITS) | MORE);
            v >>>= 7;
        }
        out.write(v);
    }

    public static void writeVarint(int value, OutputStream out) throws IOException {
        writeUnsignedVarint(zigZagEncode(value), out);
    }

    /** Bytes {@link #writeUnsignedVarint} uses for {@code value}: 1 to 5. */
    public static int sizeOfUnsignedVarint(int value) {
        // One byte per started group of 7 significant bits, at least one byte for zero.
        return Math.max(1, (38 - Integer.numberOfLeadingZeros(value)) / 7);
    }

    /** Bytes {@link #writeUnsignedVarlong} uses for {@code value}: 1 to 10. */
    public static int sizeOfUnsignedVarlong(long value) {
        return Math.max(1, (70 - Long.numberOfLeadingZeros(value)) / 7);
    }

    public static int sizeOfVarint(int value) {
        return sizeOfUnsignedVarint(zigZagEncode(value));
    }

    public static int sizeOfVarlong(long value) {
        return sizeOfUnsignedVarlong(zigZagEncode(value));
    }

    /** Maps signed to unsigned so small magnitudes of either sign encode short: 0,-1,1,-2 -> 0,1,2,3. */
    public static int zigZagEncode(int value) {
        return (value << 1) ^ (value >> 31);
    }

    public static long zigZagEncode(long value) {
        return (value << 1) ^ (value >> 63);
    }

    public static int zigZagDecode(int encoded) {
        return (encoded >>> 1) ^ -(encoded & 1);
    }

    public static long zigZagDecode(long encoded) {
        return (encoded >>> 1) ^ -(encoded & 1);
    }
}
