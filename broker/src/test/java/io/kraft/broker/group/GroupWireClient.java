package io.kraft.broker.group;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.RequestHeader;
import io.kraft.broker.protocol.ResponseHeader;
import io.kraft.broker.protocol.messages.ApiMessages;
import io.kraft.broker.protocol.schema.MessageReader;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.MessageWriter;
import io.kraft.broker.protocol.schema.Struct;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;

/** A blocking raw-socket client speaking any version of an API through the codec's own schemas. */
final class GroupWireClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int correlationId;

    GroupWireClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** A new request body of {@code api}. */
    static Struct request(ApiKey api) {
        return ApiMessages.requestSchema(api).newStruct();
    }

    /** Sends {@code body} at {@code version} and reads the response body at the same version. */
    Struct send(ApiKey api, short version, Struct body) throws IOException {
        MessageSchema requestSchema = ApiMessages.requestSchema(api);
        RequestHeader header = new RequestHeader(api.id(), version, ++correlationId, "group-wire-test",
                api.requestHeaderVersion(version));
        int size = header.sizeOf() + MessageWriter.sizeOf(requestSchema, body, version);
        ByteBuffer frame = ByteBuffer.allocate(4 + size);
        frame.putInt(size);
        header.write(frame);
        MessageWriter.write(requestSchema, body, version, frame);
        out.write(frame.array(), 0, frame.position());
        out.flush();
        byte[] response = new byte[in.readInt()];
        in.readFully(response);
        ByteBuffer bytes = ByteBuffer.wrap(response);
        ResponseHeader responseHeader = ResponseHeader.read(bytes, api.responseHeaderVersion(version));
        if (responseHeader.correlationId() != correlationId) {
            throw new IOException("response to " + responseHeader.correlationId() + ", expected " + correlationId);
        }
        return MessageReader.read(ApiMessages.responseSchema(api), version, bytes);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
