package io.kraft.broker.network;

import io.kraft.storage.errors.Errors;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Answers Produce v0-2, which the broker advertises (old librdkafka enables compression only when the
 * range contains 0) but does not serve: every partition of the request gets UNSUPPORTED_VERSION in a
 * response of the request's version, so the client fails the send instead of seeing a dropped connection.
 *
 * <p>The generated Produce classes start at v3 (the first version the broker serves), and v0 and v1 responses
 * have a layout no served version has, so these few fields are read and written here by hand: the request is the
 * v3 layout without transactional_id (its message sets are skipped, never read), the response is
 * {@code [name [index error_code base_offset log_append_time_ms(v2)]] throttle_time_ms(v1+)}.
 */
final class LegacyProduceRejection {
    /** Request header v1 before the client id: api key, api version, correlation id. */
    private static final int HEADER_FIXED_BYTES = 2 + 2 + 4;

    private LegacyProduceRejection() {
    }

    /** A topic of the request with the indexes of its partitions. */
    private record RequestedTopic(byte[] name, int[] partitions) {
    }

    /** The request cannot be read (truncated, negative lengths, a name that is not UTF-8). */
    private static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable() {
            super(null, null, false, false);
        }
    }

    /**
     * The complete response frame (int32 size, response header v0, body), or null when the request body
     * cannot be read (the caller closes the connection).
     */
    static ByteBuffer responseFrame(ByteBuffer requestFrame, short version) {
        int correlationId;
        List<RequestedTopic> topics;
        ByteBuffer in = requestFrame.duplicate();
        if (in.remaining() < HEADER_FIXED_BYTES) {
            return null;
        }
        try {
            in.getShort(); // api key
            in.getShort(); // api version
            correlationId = in.getInt();
            skipNullableString(in); // client id
            topics = readTopics(in);
        } catch (BufferUnderflowException | Unreadable e) {
            return null;
        }
        int bodySize = 4; // responses array length
        for (RequestedTopic topic : topics) {
            bodySize += 2 + topic.name().length + 4 + topic.partitions().length * partitionResponseBytes(version);
        }
        if (version >= 1) {
            bodySize += 4; // throttle_time_ms
        }
        ByteBuffer frame = ByteBuffer.allocate(4 + 4 + bodySize);
        frame.putInt(4 + bodySize).putInt(correlationId);
        frame.putInt(topics.size());
        for (RequestedTopic topic : topics) {
            frame.putShort((short) topic.name().length).put(topic.name());
            frame.putInt(topic.partitions().length);
            for (int partition : topic.partitions()) {
                frame.putInt(partition).putShort(Errors.UNSUPPORTED_VERSION.code()).putLong(-1L);
                if (version >= 2) {
                    frame.putLong(-1L); // log_append_time_ms
                }
            }
        }
        if (version >= 1) {
            frame.putInt(0);
        }
        return frame.flip();
    }

    private static int partitionResponseBytes(short version) {
        return 4 + 2 + 8 + (version >= 2 ? 8 : 0);
    }

    /** acks, timeout_ms, then [name [index records]]. */
    private static List<RequestedTopic> readTopics(ByteBuffer in) throws Unreadable {
        in.getShort(); // acks
        in.getInt(); // timeout_ms
        int topicCount = count(in);
        List<RequestedTopic> topics = new ArrayList<>(Math.min(topicCount, 64));
        for (int t = 0; t < topicCount; t++) {
            byte[] name = string(in);
            int partitionCount = count(in);
            // Each partition takes at least 8 bytes, so a count beyond them is a lie, not an allocation to make.
            if (partitionCount > in.remaining() / 8) {
                throw new Unreadable();
            }
            int[] partitions = new int[partitionCount];
            for (int p = 0; p < partitionCount; p++) {
                partitions[p] = in.getInt();
                int recordsBytes = in.getInt();
                if (recordsBytes < -1 || recordsBytes > in.remaining()) {
                    throw new Unreadable();
                }
                if (recordsBytes > 0) {
                    in.position(in.position() + recordsBytes);
                }
            }
            topics.add(new RequestedTopic(name, partitions));
        }
        return topics;
    }

    private static int count(ByteBuffer in) throws Unreadable {
        int count = in.getInt();
        if (count < 0 || count > in.remaining()) {
            throw new Unreadable();
        }
        return count;
    }

    /** A non-null string's UTF-8 bytes, checked to be valid UTF-8 and answered back as sent. */
    private static byte[] string(ByteBuffer in) throws Unreadable {
        short length = in.getShort();
        if (length < 0 || length > in.remaining()) {
            throw new Unreadable();
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            throw new Unreadable();
        }
        return bytes;
    }

    private static void skipNullableString(ByteBuffer in) throws Unreadable {
        short length = in.getShort();
        if (length < -1 || length > in.remaining()) {
            throw new Unreadable();
        }
        if (length > 0) {
            in.position(in.position() + length);
        }
    }
}
