package io.kraft.broker.fetch.follower;

import io.kraft.broker.network.SslContextFactory;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.RequestFrame;
import io.kraft.broker.protocol.ResponseHeader;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiMessageFactory;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Optional;
import javax.net.ssl.SSLSocket;

/**
 * A Kafka protocol client over one blocking socket (plain or TLS), for broker-to-broker calls: writes a typed request and reads
 * its typed response, one call at a time. Bytes and records of a response are slices of that response's own
 * read buffer (no copy), valid until the caller drops them. Any failure leaves the client closed; the caller
 * connects again.
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
        return connect(address, Optional.empty(), timeoutMs, clientId, maxResponseBytes);
    }

    /**
     * As the other {@code connect}, over TLS with {@code tls} when present: the handshake (and the check of the
     * broker's certificate) completes within {@code timeoutMs} before the client is returned.
     */
    static BlockingWireClient connect(InetSocketAddress address, Optional<SslContextFactory.ClientTls> tls,
                                      int timeoutMs, String clientId, int maxResponseBytes) throws IOException {
        Socket plain = new Socket();
        Socket socket = plain;
        try {
            plain.setTcpNoDelay(true);
            plain.connect(address, timeoutMs);
            plain.setSoTimeout(timeoutMs);
            if (tls.isPresent()) {
                SSLSocket secure = (SSLSocket) tls.get().context().getSocketFactory().createSocket(plain,
                        address.getHostString(), address.getPort(), true);
                socket = secure;
                secure.setSSLParameters(tls.get().parameters());
                secure.startHandshake();
            }
            return new BlockingWireClient(socket, clientId, maxResponseBytes);
        } catch (IOException e) {
            socket.close();
            plain.close();
            throw e;
        }
    }

    /**
     * Sends one request at {@code version} and waits for its answer.
     *
     * @param <R> the API's response class
     * @throws IOException on a network failure, a timeout, or an answer that cannot be read
     */
    @SuppressWarnings("unchecked")
    <R extends ApiMessage> R send(ApiMessage request, short version) throws IOException {
        ApiKey api = ApiKey.forId(request.apiKey());
        int correlationId = nextCorrelationId++;
        ByteBuffer frameOut = RequestFrame.toBuffer(correlationId, clientId, request, version);
        try {
            out.write(frameOut.array(), frameOut.arrayOffset() + frameOut.position(), frameOut.remaining());
            out.flush();
            int size = in.readInt();
            if (size < 0 || size > maxResponseBytes) {
                throw new IOException(api.apiName() + " response of " + size + " bytes from "
                        + socket.getRemoteSocketAddress() + " exceeds the limit of " + maxResponseBytes);
            }
            byte[] frame = new byte[size];
            in.readFully(frame);
            return (R) read(api, version, correlationId, ByteBuffer.wrap(frame));
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    /** The response in {@code frame}; bytes the codec cannot read are as unusable as a broken socket. */
    private ApiMessage read(ApiKey api, short version, int correlationId, ByteBuffer frame) throws IOException {
        try {
            ResponseHeader header = ResponseHeader.read(frame, api.responseHeaderVersion(version));
            if (header.correlationId() != correlationId) {
                throw new IOException(api.apiName() + " response from " + socket.getRemoteSocketAddress()
                        + " has correlation id " + header.correlationId() + ", expected " + correlationId);
            }
            ApiMessage response = ApiMessageFactory.newResponse(api);
            response.read(frame, version);
            return response;
        } catch (RuntimeException e) {
            // The codec reports malformed input (truncated, bad lengths) with runtime exceptions.
            throw new IOException(e.getMessage(), e);
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
