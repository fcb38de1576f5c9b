package io.kraft.storage.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/** Assembles batches byte by byte so tests can state exactly which field is wrong. */
final class RawBatch {
    private RawBatch() {
    }

    /** A batch with a correct CRC around whatever header values and payload the test chose. */
    static ByteBuffer of(long baseOffset, int attributes, int lastOffsetDelta, int recordCount, byte[] payload) {
        ByteBuffer buffer = ByteBuffer.allocate(RecordBatch.HEADER_SIZE + payload.length);
        buffer.putLong(baseOffset);
        buffer.putInt(RecordBatch.HEADER_SIZE - RecordBatch.LOG_OVERHEAD + payload.length);
        buffer.putInt(0);
        buffer.put(RecordBatch.MAGIC);
        buffer.putInt(0);
        buffer.putShort((short) attributes);
        buffer.putInt(lastOffsetDelta);
        buffer.putLong(1_000L);
        buffer.putLong(1_000L);
        buffer.putLong(RecordBatch.NO_PRODUCER_ID);
        buffer.putShort(RecordBatch.NO_PRODUCER_EPOCH);
        buffer.putInt(RecordBatch.NO_SEQUENCE);
        buffer.putInt(recordCount);
        buffer.put(payload);
        buffer.flip();
        new RecordBatch(buffer, 0).writeChecksum();
        return buffer;
    }

    /** A plain batch of the given records with consistent header counts. */
    static ByteBuffer plain(byte[]... records) {
        return of(0L, 0, records.length - 1, records.length, concat(records));
    }

    /** One well-formed record with a length prefix. */
    static byte[] record(int offsetDelta, byte[] key, byte[] value) {
        ByteBuffer body = ByteBuffer.allocate(64 + length(key) + length(value));
        body.put((byte) 0);
        Varint.writeVarlong(0L, body);
        Varint.writeVarint(offsetDelta, body);
        writeNullable(body, key);
        writeNullable(body, value);
        Varint.writeVarint(0, body);
        body.flip();
        return withLength(body.remaining(), body);
    }

    /** Record bytes from raw fields, prefixed by a length the test chooses. */
    static byte[] withLength(int declaredLength, ByteBuffer body) {
        ByteBuffer out = ByteBuffer.allocate(Varint.MAX_VARINT_BYTES + body.remaining());
        Varint.writeVarint(declaredLength, out);
        out.put(body.duplicate());
        return java.util.Arrays.copyOf(out.array(), out.position());
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    static byte[] compress(CompressionType type, byte[] plain) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (OutputStream out = type.wrapForOutput(sink)) {
            out.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sink.toByteArray();
    }

    static void writeNullable(ByteBuffer body, byte[] bytes) {
        if (bytes == null) {
            Varint.writeVarint(-1, body);
        } else {
            Varint.writeVarint(bytes.length, body);
            body.put(bytes);
        }
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }
}
