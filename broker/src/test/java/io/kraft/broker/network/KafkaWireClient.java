package io.kraft.broker.network;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

/**
 * A blocking raw-socket client that writes requests with kafka-clients' message classes (at any version,
 * including ones the Java client would not pick) and reads raw response frames, for wire-level tests.
 */
final class KafkaWireClient implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 15_000;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int nextCorrelationId = 1;

    KafkaWireClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends {@code body} as a request of {@code api} at {@code version}; returns its correlation id. */
    int send(ApiKeys api, short version, ApiMessage body) throws IOException {
        int correlationId = nextCorrelationId++;
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(api.id).setRequestApiVersion(version)
                .setCorrelationId(correlationId).setClientId("wire-test");
        short headerVersion = api.requestHeaderVersion(version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = header.size(cache, headerVersion) + body.size(cache, version);
        ByteBuffer frame = ByteBuffer.allocate(4 + size).putInt(size);
        header.write(new ByteBufferAccessor(frame), cache, headerVersion);
        body.write(new ByteBufferAccessor(frame), cache, version);
        sendRaw(frame.flip());
        return correlationId;
    }

    void sendRaw(ByteBuffer bytes) throws IOException {
        byte[] array = new byte[bytes.remaining()];
        bytes.duplicate().get(array);
        out.write(array);
        out.flush();
    }

    /** The next response frame without its size prefix. */
    ByteBuffer receiveFrame() throws IOException {
        int size = in.readInt();
        byte[] frame = new byte[size];
        in.readFully(frame);
        return ByteBuffer.wrap(frame);
    }

    /**
     * Reads the next response, checks it answers {@code correlationId}, and returns its body (positioned after
     * the response header) for a kafka-clients data class to parse.
     */
    ByteBufferAccessor receive(ApiKeys api, short version, int correlationId) throws IOException {
        ByteBuffer frame = receiveFrame();
        ResponseHeaderData header = new ResponseHeaderData(new ByteBufferAccessor(frame),
                api.responseHeaderVersion(version));
        if (header.correlationId() != correlationId) {
            throw new AssertionError("response to correlation id " + header.correlationId() + ", expected "
                    + correlationId);
        }
        return new ByteBufferAccessor(frame);
    }

    /** Whether the server closed the connection (end of stream or reset) before the read timeout. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (EOFException | SocketException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
