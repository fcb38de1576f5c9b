package io.kraft.broker.protocol;

import io.kraft.broker.protocol.codec.MalformedMessageException;
import io.kraft.broker.protocol.codec.ParseBudget;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiMessageFactory;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Entry point for an incoming request: turns one frame (the bytes after the int32 size) into a
 * {@link ParsedRequest}, or into exactly one of the {@link RequestParseException} kinds; no
 * unchecked exception escapes for bad input. Bytes and records in the body are zero-copy slices
 * of {@code frame}.
 */
public final class RequestFrame {
    private RequestFrame() {
    }

    /**
     * Reads one frame into a typed request body (the generated class of its API), or exactly one of the
     * {@link RequestParseException} kinds. Bytes and records in the body are zero-copy slices of {@code frame}.
     */
    public static ApiRequest<ApiMessage> parse(ByteBuffer frame, ApiVersionsTable table)
            throws RequestParseException {
        ByteBuffer in = frame.slice();
        Head head = readHead(in, table);
        ApiKey api = head.api();
        RequestHeader header = head.header();
        short version = header.apiVersion();
        ApiMessage body = ApiMessageFactory.newRequest(api);
        try (ParseBudget.Scope budget = ParseBudget.open(ParseBudget.forFrame(frame.remaining()))) {
            body.read(in, version);
        } catch (MalformedMessageException e) {
            throw new MalformedRequestException(api.apiName() + " v" + version + " request: " + e.getMessage(),
                    api.id(), version, header.correlationId(), header.clientId());
        }
        checkFullyRead(in, api, header);
        return new ApiRequest<>(header, api, body);
    }

    private record Head(ApiKey api, RequestHeader header) {
    }

    private static Head readHead(ByteBuffer in, ApiVersionsTable table) throws RequestParseException {
        if (in.remaining() < 8) {
            short apiKey = in.remaining() >= 2 ? in.getShort(0) : -1;
            short version = in.remaining() >= 4 ? in.getShort(2) : -1;
            throw new MalformedRequestException("Frame of " + in.remaining()
                    + " bytes is too short for a request header", apiKey, version, -1, null);
        }
        short apiKey = in.getShort(0);
        short version = in.getShort(2);
        int correlationId = in.getInt(4);
        ApiKey api = table.lookup(apiKey);
        if (api == null) {
            throw new UnknownApiKeyException(apiKey, version, correlationId, peekClientId(in));
        }
        if (!api.acceptedVersions().contains(version)) {
            throw new UnsupportedApiVersionException(api, version, correlationId, peekClientId(in));
        }
        try {
            return new Head(api, RequestHeader.read(in, api.requestHeaderVersion(version)));
        } catch (MalformedMessageException e) {
            throw new MalformedRequestException(api.apiName() + " v" + version + ": " + e.getMessage(),
                    apiKey, version, correlationId, peekClientId(in));
        }
    }

    private static void checkFullyRead(ByteBuffer in, ApiKey api, RequestHeader header)
            throws MalformedRequestException {
        if (in.hasRemaining()) {
            throw new MalformedRequestException(api.apiName() + " v" + header.apiVersion() + " request has "
                    + in.remaining() + " bytes after its body", api.id(), header.apiVersion(),
                    header.correlationId(), header.clientId());
        }
    }

    /**
     * Encodes a request frame as a client sends it: int32 size, the header version the rule picks,
     * then the body. For clients of our own (tools, tests, inter-broker calls).
     */
    public static ByteBuffer toBuffer(int correlationId, String clientId, ApiMessage body, short version) {
        ApiKey api = ApiKey.forId(body.apiKey());
        RequestHeader header = new RequestHeader(api.id(), version, correlationId, clientId,
                api.requestHeaderVersion(version));
        int size = header.sizeOf() + body.size(version);
        ByteBuffer out = ByteBuffer.allocate(4 + size).putInt(size);
        header.write(out);
        body.write(out, version);
        return out.flip();
    }

    /** Best-effort client id for error reports: every header version from 1 has it at offset 8. */
    private static String peekClientId(ByteBuffer frame) {
        ByteBuffer in = frame.duplicate().position(8);
        try {
            return RequestHeader.readClientId(in);
        } catch (MalformedMessageException | BufferUnderflowException e) {
            return null;
        }
    }
}
