package io.kraft.storage.record;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/** One record header (KIP-82): a non-null UTF-8 key and a nullable byte value. Immutable. */
public final class Header {
    private final String key;
    private final byte[] keyUtf8;
    private final byte[] value;

    /** Copies {@code value}; {@code null} is a header without a value. */
    public Header(String key, byte[] value) {
        this(Objects.requireNonNull(key, "header key"), key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.clone());
    }

    private Header(String key, byte[] keyUtf8, byte[] value) {
        this.key = key;
        this.keyUtf8 = keyUtf8;
        this.value = value;
    }

    /** Adopts arrays the parser just allocated, so reading a header copies its bytes once. */
    static Header adopt(byte[] keyUtf8, byte[] value) {
        return new Header(new String(keyUtf8, StandardCharsets.UTF_8), keyUtf8, value);
    }

    public String key() {
        return key;
    }

    /** A copy of the value, or {@code null}. */
    public byte[] value() {
        return value == null ? null : value.clone();
    }

    public boolean hasValue() {
        return value != null;
    }

    /** Value length in bytes, -1 when the value is null (as encoded on the wire). */
    public int valueSize() {
        return value == null ? -1 : value.length;
    }

    byte[] keyUtf8() {
        return keyUtf8;
    }

    byte[] valueArray() {
        return value;
    }

    /** Bytes this header takes inside a record. */
    int sizeInBytes() {
        int size = Varint.sizeOfVarint(keyUtf8.length) + keyUtf8.length;
        return size + (value == null ? Varint.sizeOfVarint(-1) : Varint.sizeOfVarint(value.length) + value.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Header other && key.equals(other.key) && Arrays.equals(value, other.value);
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "Header(" + key + ", " + (value == null ? "null" : value.length + " bytes") + ")";
    }
}
