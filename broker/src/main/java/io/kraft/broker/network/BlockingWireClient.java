package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.RequestFrame;
import io.kraft.broker.protocol.ResponseHeader;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiMessageFactory;
import io.kraft.broker.protocol.message.SaslAuthenticateRequest;
import io.kraft.broker.protocol.message.SaslAuthenticateResponse;
import io.kraft.broker.protocol.message.SaslHandshakeRequest;
import io.kraft.broker.protocol.message.SaslHandshakeResponse;
import io.kraft.broker.security.SaslAuthenticationFailure;
import io.kraft.broker.security.SaslClientLogin;
import io.kraft.broker.security.SaslClientMechanism;
import io.kraft.storage.errors.Errors;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLSocket;

/**
 * A Kafka protocol client over one blocking socket (plain or TLS), for broker-to-broker calls: writes a typed request and reads
 * its typed response, one call at a time. Bytes and records of a response are slices of the client's one read buffer
 * (no copy), valid until the next call: the buffer is reused, so a follower does not allocate a fetch response's size
 * (G1 puts arrays over half a region, 512 KiB in a 1 GiB heap, in humongous regions) per fetch; it grows to the
 * largest response seen, at most the response limit. Any failure leaves the client closed; the caller connects
 * again.
 */
public final class BlockingWireClient implements AutoCloseable {
    /** The first read buffer's size: most answers but large fetches fit in it. */
    private static final int MIN_RESPONSE_BUFFER_BYTES = 64 * 1024;
    private final Socket socket;
    /** The TCP socket under {@link #socket} (the same one without TLS). */
    private final Socket tcp;
    private final DataInputStream in;
    private final OutputStream out;
    private final String clientId;
    private final int maxResponseBytes;
    /** System.nanoTime, or a test's clock: when the SASL session must be renewed. */
    private final LongSupplier nanoClock;
    /** The bytes of the last response read; reused by the next call when large enough. */
    private byte[] responseBuffer = new byte[0];
    private int responseBufferAllocations;
    private int nextCorrelationId;
    /** The SASL login, or null on a listener without SASL. */
    private SaslClientLogin login;
    /** The {@link #nanoClock} time from which the next call re-authenticates first (KIP-368); MAX_VALUE for never. */
    private long reauthenticateAtNanos = Long.MAX_VALUE;

    private BlockingWireClient(Socket socket, Socket tcp, String clientId, int maxResponseBytes,
                               LongSupplier nanoClock) throws IOException {
        this.socket = socket;
        this.tcp = tcp;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.clientId = clientId;
        this.maxResponseBytes = maxResponseBytes;
        this.nanoClock = nanoClock;
    }

    /**
     * Connects within {@code timeoutMs}; each answer must then arrive within {@code timeoutMs} too.
     *
     * @throws IOException if the broker cannot be reached
     */
    public static BlockingWireClient connect(InetSocketAddress address, int timeoutMs, String clientId,
                                             int maxResponseBytes)
            throws IOException {
        return connect(address, InterBrokerSecurity.PLAINTEXT, timeoutMs, clientId, maxResponseBytes);
    }

    /**
     * As the other {@code connect}, over TLS when {@code security} has it (the handshake and the check of the broker's
     * certificate complete within {@code timeoutMs} before the client is returned), then logged in with SASL when it
     * has a login.
     *
     * @throws IOException also when the SASL login is refused (its message says why)
     */
    public static BlockingWireClient connect(InetSocketAddress address, InterBrokerSecurity security,
                                      int timeoutMs, String clientId, int maxResponseBytes) throws IOException {
        return connect(address, security, timeoutMs, clientId, maxResponseBytes, System::nanoTime);
    }

    /** As the other {@code connect}, renewing the SASL session by {@code nanoClock} (a test's clock). */
    static BlockingWireClient connect(InetSocketAddress address, InterBrokerSecurity security, int timeoutMs,
                                      String clientId, int maxResponseBytes, LongSupplier nanoClock)
            throws IOException {
        Optional<SslContextFactory.ClientTls> tls = security.tls();
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
            BlockingWireClient client = new BlockingWireClient(socket, plain, clientId, maxResponseBytes, nanoClock);
            if (security.sasl().isPresent()) {
                client.login = security.sasl().get();
                client.authenticate();
            }
            return client;
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
    public <R extends ApiMessage> R send(ApiMessage request, short version) throws IOException {
        if (login != null && nanoClock.getAsLong() - reauthenticateAtNanos >= 0) {
            // Before the leader's session expires, or it would close the connection at this request.
            authenticate();
        }
        return call(request, version);
    }

    /**
     * Logs in with SaslHandshake v1 and SaslAuthenticate v2 (also to re-authenticate on this connection), and notes
     * when the session must be renewed: at 85% of the lifetime the leader grants, as Kafka's clients do at 85-95%.
     */
    private void authenticate() throws IOException {
        SaslHandshakeResponse handshake = call(new SaslHandshakeRequest().setMechanism(login.mechanism()), (short) 1);
        if (handshake.errorCode() != Errors.NONE.code()) {
            close();
            throw new IOException("SASL handshake with " + socket.getRemoteSocketAddress() + " failed ("
                    + Errors.forCode(handshake.errorCode()) + "); the leader enables " + handshake.mechanisms());
        }
        SaslClientMechanism exchange = login.newExchange();
        byte[] token = exchange.initialResponse();
        while (true) {
            SaslAuthenticateResponse response = call(new SaslAuthenticateRequest()
                    .setAuthBytes(ByteBuffer.wrap(token)), (short) 2);
            if (response.errorCode() != Errors.NONE.code()) {
                close();
                throw new IOException("SASL " + login.mechanism() + " login as " + login.username() + " to "
                        + socket.getRemoteSocketAddress() + " failed: " + response.errorMessage());
            }
            byte[] challenge = new byte[response.authBytes().remaining()];
            response.authBytes().duplicate().get(challenge);
            try {
                if (exchange.isComplete() && challenge.length == 0) {
                    scheduleReauthentication(response.sessionLifetimeMs());
                    return;
                }
                token = exchange.evaluate(challenge);
                if (exchange.isComplete()) {
                    scheduleReauthentication(response.sessionLifetimeMs());
                    return;
                }
            } catch (SaslAuthenticationFailure e) {
                close();
                throw new IOException("SASL " + login.mechanism() + " login to " + socket.getRemoteSocketAddress()
                        + " failed: " + e.getMessage());
            }
        }
    }

    private void scheduleReauthentication(long sessionLifetimeMs) {
        reauthenticateAtNanos = sessionLifetimeMs <= 0 ? Long.MAX_VALUE
                : nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(sessionLifetimeMs * 85 / 100);
    }

    @SuppressWarnings("unchecked")
    private <R extends ApiMessage> R call(ApiMessage request, short version) throws IOException {
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
            byte[] frame = responseBuffer(size);
            in.readFully(frame, 0, size);
            return (R) read(api, version, correlationId, ByteBuffer.wrap(frame, 0, size).slice());
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    /** The read buffer, grown when a response does not fit: to a power of two, so growth is rare, within the limit. */
    private byte[] responseBuffer(int size) {
        if (size > responseBuffer.length) {
            int grown = Math.max(MIN_RESPONSE_BUFFER_BYTES, Integer.highestOneBit(Math.max(size - 1, 1)) << 1);
            responseBuffer = new byte[Math.max(size, Math.min(grown, maxResponseBytes))];
            responseBufferAllocations++;
        }
        return responseBuffer;
    }

    /** How many read buffers this client has allocated (for tests). */
    int responseBufferAllocations() {
        return responseBufferAllocations;
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

    public boolean isClosed() {
        return socket.isClosed() || tcp.isClosed();
    }

    /**
     * Closes the TCP connection from another thread, so a call blocked on it fails at once: an SSL socket's own close
     * would first try to send its close_notify, behind the blocked call.
     */
    public void abort() {
        try {
            tcp.close();
        } catch (IOException ignored) {
            // Nothing to do: the socket is gone either way.
        }
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
