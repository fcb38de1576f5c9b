package io.kraft.broker.protocol;

import io.kraft.broker.protocol.codec.RecordsSink;
import io.kraft.broker.protocol.message.ApiMessage;
import java.nio.ByteBuffer;

/**
 * Writes a complete response frame: int32 size, the response header of the version the rule
 * picks for (api, version), then the body. The size is computed first, so the frame is written
 * once into a buffer of exactly the right length.
 */
public final class ResponseFrame {
    private ResponseFrame() {
    }

    /** Total frame bytes including the int32 size prefix (external records included). */
    public static int frameSize(ApiKey api, short version, ApiMessage body) {
        return 4 + headerSize(api, version) + body.size(version);
    }

    /**
     * Writes the frame, leaving out the bytes of its external records and reporting each to
     * {@code sink} with the offset in {@code out} where it belongs. {@code out} needs {@link #frameSize} minus
     * {@link ApiMessage#externalRecordsBytes}.
     */
    public static void write(ApiKey api, short version, int correlationId, ApiMessage body, ByteBuffer out,
                             RecordsSink sink) {
        ResponseHeader header = new ResponseHeader(correlationId, api.responseHeaderVersion(version));
        int bodySize = body.size(version);
        out.putInt(header.sizeOf() + bodySize);
        header.write(out);
        int before = out.position();
        body.write(out, version, sink);
        long written = out.position() - before + body.externalRecordsBytes(version);
        if (written != bodySize) {
            throw new IllegalStateException(api.apiName() + " v" + version + " body wrote " + written
                    + " bytes, sized " + bodySize);
        }
    }

    /** The frame of a body without external records in a new heap buffer, flipped for reading. */
    public static ByteBuffer toBuffer(ApiKey api, short version, int correlationId, ApiMessage body) {
        ByteBuffer out = ByteBuffer.allocate(frameSize(api, version, body));
        write(api, version, correlationId, body, out, null);
        return out.flip();
    }

    private static int headerSize(ApiKey api, short version) {
        return api.responseHeaderVersion(version) >= 1 ? 5 : 4;
    }
}
