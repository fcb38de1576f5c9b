package io.kraft.broker.protocol.message;

import io.kraft.broker.protocol.codec.ExternalRecords;
import io.kraft.broker.protocol.codec.RecordsSink;
import java.nio.ByteBuffer;

/**
 * A generated, versioned body: an API's request or response ({@link ApiMessage}) or a data layout of our own
 * (a spec of type {@code data}, e.g. a {@code __consumer_offsets} record or the consumer protocol's
 * subscription), read, sized and written at any of its versions.
 */
public interface Message {
    short lowestSupportedVersion();

    short highestSupportedVersion();

    /**
     * Replaces every field with the body of {@code version} read at the buffer's position, advancing
     * it; fields the version lacks get their defaults. Bytes and records are zero-copy slices of
     * {@code in}, valid only while its content is.
     *
     * @throws io.kraft.broker.protocol.codec.MalformedMessageException if the bytes are not such a body
     */
    void read(ByteBuffer in, short version);

    /** Exact number of bytes the body takes at {@code version}, external records included. */
    int size(short version);

    /**
     * Writes the body at the buffer's position. Fields the version lacks are not written; tagged
     * fields holding their defaults are left out (KIP-482). The bytes of {@link ExternalRecords} are
     * left out too and reported to {@code sink} with the offset in {@code out} where they belong, so
     * {@code out} needs {@link #size} minus {@link #externalRecordsBytes} bytes.
     *
     * @throws IllegalStateException    if the body holds external records and {@code sink} is null
     * @throws IllegalArgumentException if a field is null at a version in which it is not nullable
     */
    void write(ByteBuffer out, short version, RecordsSink sink);

    /** Writes a body that holds no external records. */
    default void write(ByteBuffer out, short version) {
        write(out, version, null);
    }

    /** Bytes of the external records {@link #write} will leave out at {@code version}. */
    long externalRecordsBytes(short version);

    /** The body in a new heap buffer, flipped for reading. */
    default ByteBuffer toBuffer(short version) {
        ByteBuffer out = ByteBuffer.allocate(size(version));
        write(out, version);
        return out.flip();
    }

    /**
     * The version as a big-endian short followed by the body at that version, in a new heap buffer flipped for
     * reading: the layout of {@code __consumer_offsets} keys and values and of the consumer protocol's blobs.
     */
    default ByteBuffer toVersionedBuffer(short version) {
        ByteBuffer out = ByteBuffer.allocate(2 + size(version));
        out.putShort(version);
        write(out, version);
        return out.flip();
    }
}
