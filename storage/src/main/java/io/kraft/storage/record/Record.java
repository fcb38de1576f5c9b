package io.kraft.storage.record;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * One record as read from a batch, with the batch's bases applied: absolute offset and timestamp,
 * key and value as read-only buffers (null when absent), headers in order. Immutable.
 *
 * <p>Records of an uncompressed batch share the batch's memory; records of a compressed batch own a
 * copy of their decompressed bytes.
 */
public final class Record {
    private final long offset;
    private final long timestampMs;
    private final int sequence;
    private final byte attributes;
    private final int sizeInBytes;
    private final ByteBuffer key;
    private final ByteBuffer value;
    private final Header[] headers;

    Record(long offset, long timestampMs, int sequence, byte attributes, int sizeInBytes, ByteBuffer key,
            ByteBuffer value, Header[] headers) {
        this.offset = offset;
        this.timestampMs = timestampMs;
        this.sequence = sequence;
        this.attributes = attributes;
        this.sizeInBytes = sizeInBytes;
        this.key = key;
        this.value = value;
        this.headers = headers;
    }

    public long offset() {
        return offset;
    }

    /** Create time, or the batch's log-append time when the batch is stamped by the broker. */
    public long timestamp() {
        return timestampMs;
    }

    /** Producer sequence of this record (batch base sequence + offset delta), -1 for non-idempotent batches. */
    public int sequence() {
        return sequence;
    }

    /** Record attributes byte; no bits are defined in v2, kept as read. */
    public byte attributes() {
        return attributes;
    }

    /** Encoded size including the length prefix. */
    public int sizeInBytes() {
        return sizeInBytes;
    }

    public boolean hasKey() {
        return key != null;
    }

    /** A fresh read-only view of the key, or {@code null}. */
    public ByteBuffer key() {
        return key == null ? null : key.duplicate();
    }

    public int keySize() {
        return key == null ? -1 : key.remaining();
    }

    public boolean hasValue() {
        return value != null;
    }

    /** A fresh read-only view of the value, or {@code null} (a tombstone on a compacted topic). */
    public ByteBuffer value() {
        return value == null ? null : value.duplicate();
    }

    public int valueSize() {
        return value == null ? -1 : value.remaining();
    }

    public List<Header> headers() {
        return headers.length == 0 ? List.of() : List.of(headers);
    }

    Header[] headerArray() {
        return headers;
    }

    @Override
    public String toString() {
        return "Record(offset=" + offset + ", timestamp=" + timestampMs + ", keySize=" + keySize() + ", valueSize="
                + valueSize() + ", headers=" + Arrays.toString(headers) + ")";
    }
}
