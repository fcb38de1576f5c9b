package io.kraft.storage.record;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Parses one record in place and remembers where its fields are, without copying or allocating,
 * so deep validation walks a batch for free; {@link #toRecord} materializes the current record.
 *
 * <p>Record layout: length varint (read by the payload), attributes int8, timestampDelta varlong,
 * offsetDelta varint, keyLength varint (-1 = null), key, valueLength varint (-1 = null), value,
 * headerCount varint, then per header keyLength varint, key (UTF-8), valueLength varint (-1 = null), value.
 */
final class RecordCursor {
    /** Smallest possible header: two one-byte lengths. */
    private static final int MIN_HEADER_BYTES = 2;
    private static final Header[] NO_HEADERS = new Header[0];

    private ByteBuffer body;
    private int index;
    private long batchBaseOffset;
    private int sizeInBytes;
    private byte attributes;
    private long timestampDelta;
    private int offsetDelta;
    private int keyPosition;
    private int keyLength;
    private int valuePosition;
    private int valueLength;
    private int headersPosition;
    private int headerCount;

    /**
     * Parses the record whose bytes (after the length prefix) are {@code body}'s position..limit.
     * The buffer's position is consumed; absolute positions are kept for later reads.
     *
     * @throws CorruptRecordException when a field is malformed or the fields do not fill the record exactly
     */
    void parse(ByteBuffer body, int lengthPrefixBytes, int index, long batchBaseOffset) {
        this.body = body;
        this.index = index;
        this.batchBaseOffset = batchBaseOffset;
        int start = body.position();
        try {
            attributes = body.get();
            timestampDelta = Varint.readVarlong(body);
            offsetDelta = Varint.readVarint(body);
            keyLength = readNullableLength(body, "key");
            keyPosition = body.position();
            skip(body, keyLength, "key");
            valueLength = readNullableLength(body, "value");
            valuePosition = body.position();
            skip(body, valueLength, "value");
            headerCount = Varint.readVarint(body);
            headersPosition = body.position();
            skipHeaders(body);
        } catch (BufferUnderflowException e) {
            throw corrupt("fields run past its length of " + (body.limit() - start) + " bytes");
        } catch (IllegalArgumentException e) {
            throw corrupt(e.getMessage());
        }
        if (body.hasRemaining()) {
            throw corrupt(body.remaining() + " bytes are left over after its last header");
        }
        sizeInBytes = lengthPrefixBytes + body.limit() - start;
    }

    private int readNullableLength(ByteBuffer buffer, String field) {
        int length = Varint.readVarint(buffer);
        if (length < -1) {
            throw corrupt(field + " length " + length + " is invalid");
        }
        return length;
    }

    private void skip(ByteBuffer buffer, int length, String field) {
        if (length > buffer.remaining()) {
            throw corrupt(field + " length " + length + " exceeds the " + buffer.remaining() + " bytes left in the record");
        }
        if (length > 0) {
            buffer.position(buffer.position() + length);
        }
    }

    private void skipHeaders(ByteBuffer buffer) {
        if (headerCount < 0) {
            throw corrupt("header count " + headerCount + " is negative");
        }
        if (headerCount > buffer.remaining() / MIN_HEADER_BYTES) {
            throw corrupt("header count " + headerCount + " cannot fit in the " + buffer.remaining() + " bytes left");
        }
        for (int i = 0; i < headerCount; i++) {
            int headerKeyLength = Varint.readVarint(buffer);
            if (headerKeyLength < 0) {
                throw corrupt("header " + i + " key length " + headerKeyLength + " is invalid (keys are required)");
            }
            skip(buffer, headerKeyLength, "header " + i + " key");
            skip(buffer, readNullableLength(buffer, "header " + i + " value"), "header " + i + " value");
        }
    }

    private CorruptRecordException corrupt(String detail) {
        return new CorruptRecordException("record " + index + " of batch at offset " + batchBaseOffset + " is corrupt: "
                + detail);
    }

    int offsetDelta() {
        return offsetDelta;
    }

    long timestampDelta() {
        return timestampDelta;
    }

    ByteBuffer body() {
        return body;
    }

    int keyPosition() {
        return keyPosition;
    }

    /** -1 when the key is null. */
    int keyLength() {
        return keyLength;
    }

    int valuePosition() {
        return valuePosition;
    }

    /** -1 when the value is null. */
    int valueLength() {
        return valueLength;
    }

    /**
     * Builds the parsed record; key and value share {@code body}'s memory, so the caller must hand in
     * bodies that outlive the record.
     */
    Record toRecord(long baseOffset, long baseTimestamp, long logAppendTimeMs, int baseSequence) {
        long timestamp = logAppendTimeMs != RecordBatch.NO_TIMESTAMP ? logAppendTimeMs : baseTimestamp + timestampDelta;
        ByteBuffer key = keyLength < 0 ? null : body.slice(keyPosition, keyLength).asReadOnlyBuffer();
        ByteBuffer value = valueLength < 0 ? null : body.slice(valuePosition, valueLength).asReadOnlyBuffer();
        return new Record(baseOffset + offsetDelta, timestamp, RecordBatch.sequenceAfter(baseSequence, offsetDelta),
                attributes, sizeInBytes, key, value, readHeaders());
    }

    private Header[] readHeaders() {
        if (headerCount == 0) {
            return NO_HEADERS;
        }
        ByteBuffer in = body.duplicate().position(headersPosition);
        Header[] headers = new Header[headerCount];
        for (int i = 0; i < headerCount; i++) {
            byte[] key = new byte[Varint.readVarint(in)];
            in.get(key);
            int length = Varint.readVarint(in);
            byte[] value = null;
            if (length >= 0) {
                value = new byte[length];
                in.get(value);
            }
            headers[i] = Header.adopt(key, value);
        }
        return headers;
    }
}
