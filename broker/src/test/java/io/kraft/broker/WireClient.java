package io.kraft.broker;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.RequestFrame;
import io.kraft.broker.protocol.ResponseHeader;
import io.kraft.broker.protocol.message.ApiMessageFactory;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * The one blocking raw-socket Kafka client of the tests: sends requests written by kafka-clients (at any version,
 * including ones the Java client would not pick), by our generated message classes or our Struct codec, or as raw
 * bytes, and reads responses as kafka-clients or our codecs parse them, or as raw frames; it also notices a
 * connection the server closed.
 */
public final class WireClient implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 15_000;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int nextCorrelationId = 1;

    public WireClient(int port) throws IOException {
        this(new Socket("127.0.0.1", port));
    }

    /** Over a socket already connected, e.g. a TLS one that carries a client certificate. */
    public WireClient(Socket connected) throws IOException {
        socket = connected;
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    // ---- kafka-clients' requests ------------------------------------------------------------------------------

    /** Sends the request at its own version and returns the response as kafka-clients parses it. */
    @SuppressWarnings("unchecked")
    public <T extends AbstractResponse> T send(AbstractRequest request) throws IOException {
        org.apache.kafka.common.requests.RequestHeader header = new org.apache.kafka.common.requests.RequestHeader(
                request.apiKey(), request.version(), "wire-test", nextCorrelationId++);
        send(request, header);
        return (T) AbstractResponse.parseResponse(receiveFrame(), header);
    }

    /** Sends a request with the header given; the caller reads the response with {@link #receiveFrame}. */
    public void send(AbstractRequest request, org.apache.kafka.common.requests.RequestHeader header)
            throws IOException {
        ByteBuffer headerAndBody = request.serializeWithHeader(header);
        ByteBuffer frame = ByteBuffer.allocate(4 + headerAndBody.remaining());
        frame.putInt(headerAndBody.remaining()).put(headerAndBody).flip();
        sendRaw(frame);
    }

    /** Sends {@code body} as a request of {@code api} at {@code version}; returns its correlation id. */
    public int send(ApiKeys api, short version, ApiMessage body) throws IOException {
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

    /**
     * Reads the next response, checks it answers {@code correlationId}, and returns its body (positioned after the
     * response header) for a kafka-clients data class to parse.
     */
    public ByteBufferAccessor receive(ApiKeys api, short version, int correlationId) throws IOException {
        ByteBuffer frame = receiveFrame();
        ResponseHeaderData header = new ResponseHeaderData(new ByteBufferAccessor(frame),
                api.responseHeaderVersion(version));
        if (header.correlationId() != correlationId) {
            throw new AssertionError("response to correlation id " + header.correlationId() + ", expected "
                    + correlationId);
        }
        return new ByteBufferAccessor(frame);
    }

    /**
     * Sends a body written elsewhere at a non-flexible version, with a v1 request header, and returns the response
     * as kafka-clients parses it.
     */
    @SuppressWarnings("unchecked")
    public <T extends AbstractResponse> T sendUnflexible(ApiKeys api, short version, ByteBuffer body)
            throws IOException {
        org.apache.kafka.common.requests.RequestHeader header = new org.apache.kafka.common.requests.RequestHeader(
                api, version, "wire-test", nextCorrelationId++);
        byte[] clientId = header.clientId().getBytes(StandardCharsets.UTF_8);
        int size = 2 + 2 + 4 + 2 + clientId.length + body.remaining();
        ByteBuffer frame = ByteBuffer.allocate(4 + size);
        frame.putInt(size).putShort(api.id).putShort(version).putInt(header.correlationId())
                .putShort((short) clientId.length).put(clientId).put(body.duplicate()).flip();
        sendRaw(frame);
        return (T) AbstractResponse.parseResponse(receiveFrame(), header);
    }

    // ---- our typed messages ------------------------------------------------------------------------------------------

    /** Sends a typed request at {@code version} and reads its typed response (our generated classes). */
    public <R extends io.kraft.broker.protocol.message.ApiMessage> R send(
            io.kraft.broker.protocol.message.ApiMessage request, short version) throws IOException {
        int correlationId = sendRequest(request, version);
        return receiveResponse(ApiKey.forId(request.apiKey()), version, correlationId);
    }

    /**
     * Sends a typed request at {@code version} without waiting for its response; returns its correlation id for
     * {@link #receiveResponse}.
     */
    public int sendRequest(io.kraft.broker.protocol.message.ApiMessage request, short version) throws IOException {
        int correlationId = nextCorrelationId++;
        sendRaw(RequestFrame.toBuffer(correlationId, "wire-test", request, version));
        return correlationId;
    }

    /** Reads the next response, checks it answers {@code correlationId}, and parses it as {@code api}'s response. */
    @SuppressWarnings("unchecked")
    public <R extends io.kraft.broker.protocol.message.ApiMessage> R receiveResponse(ApiKey api, short version,
                                                                                     int correlationId)
            throws IOException {
        ByteBuffer bytes = receiveFrame();
        ResponseHeader header = ResponseHeader.read(bytes, api.responseHeaderVersion(version));
        if (header.correlationId() != correlationId) {
            throw new IOException("response to " + header.correlationId() + ", expected " + correlationId);
        }
        io.kraft.broker.protocol.message.ApiMessage response = ApiMessageFactory.newResponse(api);
        response.read(bytes, version);
        if (bytes.hasRemaining()) {
            throw new IOException(api.apiName() + " v" + version + " response has " + bytes.remaining()
                    + " bytes after its body");
        }
        return (R) response;
    }

    // ---- raw bytes -------------------------------------------------------------------------------------------------

    public void sendRaw(ByteBuffer bytes) throws IOException {
        byte[] array = new byte[bytes.remaining()];
        bytes.duplicate().get(array);
        out.write(array);
        out.flush();
    }

    /** The next response frame without its size prefix. */
    public ByteBuffer receiveFrame() throws IOException {
        int size = in.readInt();
        byte[] frame = new byte[size];
        in.readFully(frame);
        return ByteBuffer.wrap(frame);
    }

    /** Whether the server closed the connection (end of stream or reset) before the read timeout. */
    public boolean closedByServer() throws IOException {
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
