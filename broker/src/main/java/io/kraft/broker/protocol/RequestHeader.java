package io.kraft.broker.protocol;

import io.kraft.broker.protocol.codec.MalformedMessageException;
import io.kraft.broker.protocol.codec.Utf8;
import io.kraft.broker.protocol.codec.Varints;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * A request header. v0: api key, version, correlation id; v1 adds client_id, a nullable string
 * with an int16 length in every version (never compact, so any broker can read it); v2 adds tagged
 * fields, of which none are known, so all are skipped.
 */
public record RequestHeader(short apiKey, short apiVersion, int correlationId, String clientId, short headerVersion) {

    public RequestHeader {
        if (headerVersion < 0 || headerVersion > 2) {
            throw new IllegalArgumentException("Request header version " + headerVersion + " does not exist");
        }
    }

    /** Reads a header of {@code headerVersion} from the buffer's position. */
    public static RequestHeader read(ByteBuffer in, short headerVersion) {
        try {
            short apiKey = in.getShort();
            short apiVersion = in.getShort();
            int correlationId = in.getInt();
            String clientId = null;
            if (headerVersion >= 1) {
                clientId = readClientId(in);
            }
            if (headerVersion >= 2) {
                skipTaggedFields(in);
            }
            return new RequestHeader(apiKey, apiVersion, correlationId, clientId, headerVersion);
        } catch (BufferUnderflowException e) {
            throw new MalformedMessageException("Truncated request header v" + headerVersion);
        }
    }

    static String readClientId(ByteBuffer in) {
        short length = in.getShort();
        if (length < -1) {
            throw new MalformedMessageException("Request header client_id has negative length " + length);
        }
        if (length == -1) {
            return null;
        }
        if (length > in.remaining()) {
            throw new MalformedMessageException("Request header client_id claims " + length
                    + " bytes but only " + in.remaining() + " remain");
        }
        return Utf8.read(in, length);
    }

    static void skipTaggedFields(ByteBuffer in) {
        int count = Varints.readUnsignedVarint(in);
        if (count < 0 || count > in.remaining()) {
            throw new MalformedMessageException("Header claims " + Integer.toUnsignedString(count) + " tagged fields but only "
                    + in.remaining() + " bytes remain");
        }
        for (int i = 0; i < count; i++) {
            Varints.readUnsignedVarint(in);
            int size = Varints.readUnsignedVarint(in);
            if (size < 0 || size > in.remaining()) {
                throw new MalformedMessageException("Header tagged field declares " + Integer.toUnsignedString(size)
                        + " bytes but only " + in.remaining() + " remain");
            }
            in.position(in.position() + size);
        }
    }

    public int sizeOf() {
        int size = 8;
        if (headerVersion >= 1) {
            size += 2 + (clientId == null ? 0 : Utf8.encodedLength(clientId));
        }
        if (headerVersion >= 2) {
            size += 1;
        }
        return size;
    }

    public void write(ByteBuffer out) {
        out.putShort(apiKey).putShort(apiVersion).putInt(correlationId);
        if (headerVersion >= 1) {
            if (clientId == null) {
                out.putShort((short) -1);
            } else {
                out.putShort((short) Utf8.encodedLength(clientId));
                Utf8.write(clientId, out);
            }
        }
        if (headerVersion >= 2) {
            Varints.writeUnsignedVarint(0, out);
        }
    }
}
