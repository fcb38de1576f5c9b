package io.kraft.broker.network;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;

/** A blocking raw-socket Kafka client for tests: writes frames, reads frames, notices a closed connection. */
final class WireClient implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 10_000;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    WireClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends a request serialized by kafka-clients, with the int32 size prefix. */
    void send(AbstractRequest request, RequestHeader header) throws IOException {
        ByteBuffer headerAndBody = request.serializeWithHeader(header);
        ByteBuffer frame = ByteBuffer.allocate(4 + headerAndBody.remaining());
        frame.putInt(headerAndBody.remaining()).put(headerAndBody).flip();
        sendRaw(frame);
    }

    void sendRaw(ByteBuffer bytes) throws IOException {
        byte[] array = new byte[bytes.remaining()];
        bytes.duplicate().get(array);
        out.write(array);
        out.flush();
    }

    /** The next response frame, without its size prefix. */
    ByteBuffer receive() throws IOException {
        int size = in.readInt();
        byte[] frame = new byte[size];
        in.readFully(frame);
        return ByteBuffer.wrap(frame);
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
