package io.kraft.broker.fetch.follower;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.RequestFrame;
import io.kraft.broker.protocol.ResponseHeader;
import io.kraft.broker.protocol.messages.ApiMessages;
import io.kraft.broker.protocol.schema.MalformedMessageException;
import io.kraft.broker.protocol.schema.MessageReader;
import io.kraft.broker.protocol.schema.Struct;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * A Kafka protocol client over one blocking socket, for broker-to-broker calls: writes a request frame with
 * our own codec and reads its response frame, one call at a time. Any failure leaves the client closed;
 * the caller connects again.
 */
final class BlockingWireClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final String clientId;
    private final int maxResponseBytes;
    private int nextCorrelationId;

    private BlockingWireClient(Socket socket, String clientId, int maxResponseBytes) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.clientId = clientId;
        this.maxResponseBytes = maxResponseBytes;
    }

    /**
     * Connects within {@code timeoutMs}; each answer must then arrive within {@code timeoutMs} too.
     *
     * @throws IOException if the broker cannot be reached
     */
    static BlockingWireClient connect(InetSocketAddress address, int timeoutMs, String clientId, int maxResponseBytes)
            throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(address, timeoutMs);
            socket.setSoTimeout(timeoutMs);
            return new BlockingWireClient(socket, clientId, maxResponseBytes);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Sends one request and waits for its answer.
     *
     * @throws IOException on a network failure, a timeout, or an answer that cannot be read
     */
    Struct send(ApiKey api, short version, Struct body) throws IOException {
        int correlationId = nextCorrelationId++;
        try {
            ByteBuffer request = RequestFrame.toBuffer(api, version, correlationId, clientId, body);
            out.write(request.array(), request.arrayOffset() + request.position(), request.remaining());
            out.flush();
            int size = in.readInt();
            if (size < 0 || size > maxResponseBytes) {
                throw new IOException(api.apiName() + " response of " + size + " bytes from "
                        + socket.getRemoteSocketAddress() + " exceeds the limit of " + maxResponseBytes);
            }
            byte[] frame = new byte[size];
            in.readFully(frame);
            ByteBuffer buffer = ByteBuffer.wrap(frame);
            ResponseHeader header = ResponseHeader.read(buffer, api.responseHeaderVersion(version));
            if (header.correlationId() != correlationId) {
                throw new IOException(api.apiName() + " response from " + socket.getRemoteSocketAddress()
                        + " has correlation id " + header.correlationId() + ", expected " + correlationId);
            }
            return MessageReader.read(ApiMessages.responseSchema(api), version, buffer);
        } catch (IOException | MalformedMessageException e) {
            close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
    }

    boolean isClosed() {
        return socket.isClosed();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Nothing to do: the socket is gone either way.
        }
    }
}
