package io.kraft.broker.protocol;

import io.kraft.broker.protocol.codec.MalformedMessageException;
import io.kraft.broker.protocol.codec.Varints;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/** A response header: v0 is the correlation id; v1 adds (empty) tagged fields. */
public record ResponseHeader(int correlationId, short headerVersion) {

    public ResponseHeader {
        if (headerVersion < 0 || headerVersion > 1) {
            throw new IllegalArgumentException("Response header version " + headerVersion + " does not exist");
        }
    }

    public static ResponseHeader read(ByteBuffer in, short headerVersion) {
        try {
            int correlationId = in.getInt();
            if (headerVersion >= 1) {
                RequestHeader.skipTaggedFields(in);
            }
            return new ResponseHeader(correlationId, headerVersion);
        } catch (BufferUnderflowException e) {
            throw new MalformedMessageException("Truncated response header v" + headerVersion);
        }
    }

    public int sizeOf() {
        return headerVersion >= 1 ? 5 : 4;
    }

    public void write(ByteBuffer out) {
        out.putInt(correlationId);
        if (headerVersion >= 1) {
            Varints.writeUnsignedVarint(0, out);
        }
    }
}
