package io.kraft.broker.handler;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;

/** A blocking raw-socket client: requests serialized and responses parsed by kafka-clients at an exact version. */
final class RawClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int correlationId;

    RawClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends the request at its own version and returns the parsed response. */
    @SuppressWarnings("unchecked")
    <T extends AbstractResponse> T send(AbstractRequest request) throws IOException {
        ApiKeys api = request.apiKey();
        RequestHeader header = new RequestHeader(api, request.version(), "raw-client", correlationId++);
        ByteBuffer headerAndBody = request.serializeWithHeader(header);
        ByteBuffer frame = ByteBuffer.allocate(4 + headerAndBody.remaining());
        frame.putInt(headerAndBody.remaining()).put(headerAndBody).flip();
        out.write(frame.array(), 0, frame.limit());
        out.flush();
        byte[] response = new byte[in.readInt()];
        in.readFully(response);
        return (T) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
    }

    /**
     * Sends a body written elsewhere (our codec) at a non-flexible version, with a v1 request header, and returns
     * the response as kafka-clients parses it.
     */
    @SuppressWarnings("unchecked")
    <T extends AbstractResponse> T sendUnflexible(ApiKeys api, short version, ByteBuffer body) throws IOException {
        RequestHeader header = new RequestHeader(api, version, "raw-client", correlationId++);
        byte[] clientId = header.clientId().getBytes(StandardCharsets.UTF_8);
        int size = 2 + 2 + 4 + 2 + clientId.length + body.remaining();
        ByteBuffer frame = ByteBuffer.allocate(4 + size);
        frame.putInt(size).putShort(api.id).putShort(version).putInt(header.correlationId())
                .putShort((short) clientId.length).put(clientId).put(body.duplicate()).flip();
        out.write(frame.array(), 0, frame.limit());
        out.flush();
        byte[] response = new byte[in.readInt()];
        in.readFully(response);
        return (T) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
