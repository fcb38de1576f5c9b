package io.kraft.storage.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.kafka.common.utils.internals.ByteUtils;
import org.junit.jupiter.api.Test;

class VarintTest {
    private static final int[] INT_EDGES = {0, 1, -1, 63, -64, 64, -65, 127, 128, 8191, -8192, 8192, 1 << 20,
        Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1};
    private static final long[] LONG_EDGES = {0L, 1L, -1L, 63L, -64L, 64L, 1L << 35, -(1L << 35), 1L << 62,
        Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1, Integer.MAX_VALUE, Integer.MIN_VALUE};

    @Test
    void encodesKnownValuesToTheirProtocolBytes() {
        assertArrayEquals(new byte[] {0}, varint(0));
        assertArrayEquals(new byte[] {1}, varint(-1));
        assertArrayEquals(new byte[] {2}, varint(1));
        assertArrayEquals(new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}, varint(Integer.MAX_VALUE));
        assertArrayEquals(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}, varint(Integer.MIN_VALUE));
        ByteBuffer unsigned = ByteBuffer.allocate(5);
        Varint.writeUnsignedVarint(300, unsigned);
        assertArrayEquals(new byte[] {(byte) 0xAC, 0x02}, java.util.Arrays.copyOf(unsigned.array(), unsigned.position()));
    }

    @Test
    void roundTripsIntEdgesWithExactSizes() {
        for (int value : INT_EDGES) {
            ByteBuffer buffer = ByteBuffer.allocate(Varint.MAX_VARINT_BYTES);
            Varint.writeVarint(value, buffer);
            assertEquals(Varint.sizeOfVarint(value), buffer.position(), "size of " + value);
            buffer.flip();
            assertEquals(value, Varint.readVarint(buffer));
            assertFalse(buffer.hasRemaining());

            buffer.clear();
            Varint.writeUnsignedVarint(value, buffer);
            assertEquals(Varint.sizeOfUnsignedVarint(value), buffer.position(), "unsigned size of " + value);
            buffer.flip();
            assertEquals(value, Varint.readUnsignedVarint(buffer));
        }
    }

    @Test
    void roundTripsLongEdgesWithExactSizes() {
        for (long value : LONG_EDGES) {
            ByteBuffer buffer = ByteBuffer.allocate(Varint.MAX_VARLONG_BYTES);
            Varint.writeVarlong(value, buffer);
            assertEquals(Varint.sizeOfVarlong(value), buffer.position(), "size of " + value);
            buffer.flip();
            assertEquals(value, Varint.readVarlong(buffer));

            buffer.clear();
            Varint.writeUnsignedVarlong(value, buffer);
            assertEquals(Varint.sizeOfUnsignedVarlong(value), buffer.position(), "unsigned size of " + value);
            buffer.flip();
            assertEquals(value, Varint.readUnsignedVarlong(buffer));
        }
    }

    @Test
    void sizesCoverEveryByteBoundary() {
        assertEquals(1, Varint.sizeOfUnsignedVarint(0));
        assertEquals(1, Varint.sizeOfUnsignedVarint(127));
        assertEquals(2, Varint.sizeOfUnsignedVarint(128));
        assertEquals(3, Varint.sizeOfUnsignedVarint(1 << 14));
        assertEquals(4, Varint.sizeOfUnsignedVarint(1 << 21));
        assertEquals(5, Varint.sizeOfUnsignedVarint(1 << 28));
        assertEquals(5, Varint.sizeOfUnsignedVarint(-1));
        assertEquals(1, Varint.sizeOfVarint(-1));
        assertEquals(1, Varint.sizeOfVarint(-64));
        assertEquals(2, Varint.sizeOfVarint(-65));
        assertEquals(5, Varint.sizeOfVarint(Integer.MIN_VALUE));
        assertEquals(1, Varint.sizeOfUnsignedVarlong(0L));
        assertEquals(10, Varint.sizeOfUnsignedVarlong(-1L));
        assertEquals(9, Varint.sizeOfUnsignedVarlong(Long.MAX_VALUE >>> 1));
        assertEquals(10, Varint.sizeOfVarlong(Long.MIN_VALUE));
        assertEquals(10, Varint.sizeOfVarlong(Long.MAX_VALUE));
    }

    @Test
    void matchesKafkaClientsEncodingForRandomValues() {
        long seed = Long.getLong("kraft.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int i = 0; i < 5_000; i++) {
            // Spread magnitudes so every encoded length shows up.
            int intValue = random.nextInt() >> random.nextInt(32);
            long longValue = random.nextLong() >> random.nextInt(64);
            ByteBuffer ours = ByteBuffer.allocate(16);
            ByteBuffer theirs = ByteBuffer.allocate(16);
            Varint.writeVarint(intValue, ours);
            ByteUtils.writeVarint(intValue, theirs);
            Varint.writeVarlong(longValue, ours);
            ByteUtils.writeVarlong(longValue, theirs);
            assertEquals(theirs.flip(), ours.flip(), "seed " + seed + " (-Dkraft.seed), values " + intValue
                    + ", " + longValue);
            assertEquals(intValue, ByteUtils.readVarint(ours));
            assertEquals(longValue, ByteUtils.readVarlong(ours));
        }
    }

    @Test
    void streamWritesMatchBufferWrites() throws IOException {
        for (int value : INT_EDGES) {
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            Varint.writeVarint(value, stream);
            assertArrayEquals(varint(value), stream.toByteArray());
        }
    }

    @Test
    void rejectsEncodingsLongerThanTheType() {
        ByteBuffer sixBytes = ByteBuffer.wrap(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1});
        IllegalArgumentException intError = assertThrows(IllegalArgumentException.class, () -> Varint.readVarint(sixBytes));
        assertTrue(intError.getMessage().contains("longer than 5 bytes"), intError.getMessage());

        byte[] elevenBytes = new byte[11];
        java.util.Arrays.fill(elevenBytes, (byte) 0x80);
        IllegalArgumentException longError = assertThrows(IllegalArgumentException.class,
                () -> Varint.readVarlong(ByteBuffer.wrap(elevenBytes)));
        assertTrue(longError.getMessage().contains("longer than 10 bytes"), longError.getMessage());
    }

    @Test
    void truncatedEncodingUnderflows() {
        assertThrows(BufferUnderflowException.class, () -> Varint.readVarint(ByteBuffer.wrap(new byte[] {(byte) 0x80})));
        assertThrows(BufferUnderflowException.class, () -> Varint.readVarlong(ByteBuffer.allocate(0)));
    }

    private static byte[] varint(int value) {
        ByteBuffer buffer = ByteBuffer.allocate(Varint.MAX_VARINT_BYTES);
        Varint.writeVarint(value, buffer);
        return java.util.Arrays.copyOf(buffer.array(), buffer.position());
    }
}
