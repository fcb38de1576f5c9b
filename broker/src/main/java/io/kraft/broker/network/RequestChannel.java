package io.kraft.broker.network;

import io.kraft.broker.metrics.RequestMetrics;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.ApiVersionsTable;
import io.kraft.broker.protocol.LogText;
import io.kraft.broker.protocol.RequestFrame;
import io.kraft.broker.protocol.RequestParseException;
import io.kraft.broker.protocol.ResponseFrame;
import io.kraft.broker.protocol.UnsupportedApiVersionException;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiVersionsResponse;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.quota.ClientQuotas;
import io.kraft.storage.errors.Errors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's request path: parses each frame, runs its handler on the shared pool, and writes the
 * responses back strictly in request order, whichever thread completes them. Its requests start one at a
 * time, each once the previous handler returned (its answer may still be pending), so their effects happen in
 * the order sent. Its state is touched only on the connection's event loop; completions hop back onto it.
 * When requests pile up or the pool is full, the connection stops reading (back-pressure instead of an
 * unbounded queue).
 *
 * <p>A request's frame buffer (pooled) is held until its handler returns, since parsed bodies are slices of
 * it (zero copy); a handler that fails gets its API's error response where one exists, else the connection
 * is closed with one log line naming the client and API.
 */
final class RequestChannel extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(RequestChannel.class);
    /** Kafka's request log: one line per answered request at DEBUG. */
    private static final Logger REQUEST_LOG = LoggerFactory.getLogger("kafka.request.logger");
    /** Parsed requests a connection may have waiting before it stops reading. */
    private static final int MAX_PENDING_REQUESTS = 32;
    /**
     * Requests of one connection whose answers are not written yet (waiting, running, or parked as a long poll
     * or replication wait) before it stops reading: bounds what one client holds in purgatories and in
     * responses it does not collect. Kafka's clients pipeline at most 5 by default.
     */
    static final int MAX_IN_FLIGHT_REQUESTS = 128;

    private final RequestHandlerRegistry registry;
    private final RequestHandlerPool pool;
    private final String listenerName;
    private final ReadGate gate;
    private final ResponseSequencer<Answer> sequencer = new ResponseSequencer<>();
    private final RequestMetrics requestMetrics;
    /** Parsed requests waiting for their turn, in arrival order. */
    private final ArrayDeque<PendingRequest> pending = new ArrayDeque<>();
    /** A handler of this connection is running its synchronous part: the next request waits for it. */
    private boolean handlerRunning;
    /** The pool refused the next request; a callback will retry when a slot frees up. */
    private boolean waitingForPoolSpace;
    private ChannelHandlerContext ctx;
    private RequestContext context;
    private boolean closing;
    /** Client quotas to enforce, or null for none. */
    private final ClientQuotas quotas;
    /** Over a client quota: neither reads nor starts requests until {@link #throttledUntilNanos}. */
    private boolean throttled;
    private long throttledUntilNanos;

    /** Whether the connection is encrypted: record bytes then go through the TLS handler, not as file regions. */
    private final boolean tls;

    /** The listener's SASL settings, or null when it has no SASL (then no request is checked: the fast path). */
    private final SaslSettings sasl;
    private final ScramCredentials scramCredentials;
    /** This connection's SASL state, or null on a listener without SASL. */
    private SaslAuthenticator authenticator;

    RequestChannel(RequestHandlerRegistry registry, RequestHandlerPool pool, String listenerName, ReadGate gate,
                   RequestMetrics requestMetrics, boolean tls) {
        this(registry, pool, listenerName, gate, requestMetrics, tls, null, ScramCredentials.NONE);
    }

    RequestChannel(RequestHandlerRegistry registry, RequestHandlerPool pool, String listenerName, ReadGate gate,
                   RequestMetrics requestMetrics, boolean tls, SaslSettings sasl, ScramCredentials scramCredentials) {
        this.tls = tls;
        this.sasl = sasl;
        this.scramCredentials = scramCredentials;
        this.registry = registry;
        this.requestMetrics = requestMetrics;
        this.pool = pool;
        this.listenerName = listenerName;
        this.gate = gate;
        this.quotas = registry.quotas();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        SecurityProtocol protocol = sasl == null ? (tls ? SecurityProtocol.SSL : SecurityProtocol.PLAINTEXT)
                : (tls ? SecurityProtocol.SASL_SSL : SecurityProtocol.SASL_PLAINTEXT);
        ConnectionSession session = new ConnectionSession(protocol);
        if (sasl != null) {
            authenticator = new SaslAuthenticator(sasl, scramCredentials, session, ctx.channel().remoteAddress(),
                    System::nanoTime);
            session.sasl(authenticator);
        }
        this.context = new RequestContext(listenerName, ctx.channel().remoteAddress(), registry.apiVersions(),
                session, registry.authorizer());
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        InboundFrame frame = (InboundFrame) msg;
        long receivedNanos = System.nanoTime();
        if (closing) {
            frame.release();
            return;
        }
        ByteBuf buf = frame.bytes();
        ByteBuffer bytes;
        if (buf.nioBufferCount() == 1) {
            bytes = buf.nioBuffer();
        } else {
            bytes = ByteBuffer.allocate(buf.readableBytes());
            buf.getBytes(buf.readerIndex(), bytes);
            bytes.flip();
        }
        ApiVersionsTable table = registry.apiVersions();
        Call call;
        try {
            ApiRequest<ApiMessage> request = RequestFrame.parse(bytes, table);
            if (authenticator != null) {
                Optional<String> refusal = authenticator.refusal(request.api(), receivedNanos);
                if (refusal.isPresent()) {
                    frame.release();
                    closeUnauthenticated(refusal.get());
                    return;
                }
            }
            call = new Call(registry.handler(request.api()), request);
        } catch (UnsupportedApiVersionException e) {
            answerUnsupportedVersion(e, bytes);
            frame.release();
            return;
        } catch (RequestParseException e) {
            frame.release();
            closeOnBadRequest(e);
            return;
        }
        long sequence = sequencer.nextSequence();
        int sizeBytes = bytes.remaining();
        boolean inline = InlineRequests.runsInline(call.api(), sizeBytes);
        pending.add(new PendingRequest(() -> run(call, sequence, frame, receivedNanos, sizeBytes), frame, inline));
        startNext();
    }

    /**
     * An answer waiting for its turn to be written, with its request (for the request log) and when the request
     * arrived, started, returned from its handler and was answered; a refused version's answer has no request.
     */
    private record Answer(OutboundResponse response, Call call, int sizeBytes, long receivedNanos, long startedNanos,
                          long returnedNanos, long completedNanos, int throttleMs) {
        static Answer withoutRequest(OutboundResponse response) {
            return new Answer(response, null, 0, 0, 0, 0, 0, 0);
        }

        void discard() {
            response.discard();
        }

        /** Records the request's metrics and request-log line now that its answer is written. */
        void recordSent(RequestMetrics metrics, RequestContext context) {
            if (call == null) {
                return;
            }
            long sentNanos = System.nanoTime();
            metrics.record(call.api(), call.version(), call.followerFetch(), receivedNanos, startedNanos, returnedNanos,
                    completedNanos, sentNanos);
            if (REQUEST_LOG.isDebugEnabled()) {
                REQUEST_LOG.debug("Completed {} v{} correlation {} from client {} at {} as {}, {} bytes: total {} ms "
                                + "(queue {}, local {}, remote {}, send {})", call.api().apiName(), call.version(),
                        call.correlationId(), call.clientId(), context.clientAddress(), context.principal(), sizeBytes,
                        millis(receivedNanos, sentNanos), millis(receivedNanos, startedNanos),
                        millis(startedNanos, returnedNanos), millis(returnedNanos, completedNanos),
                        millis(completedNanos, sentNanos));
            }
        }

        private static String millis(long fromNanos, long toNanos) {
            return String.format(Locale.ROOT, "%.3f", (toNanos - fromNanos) / 1e6);
        }
    }

    /**
     * A request waiting for its turn, with the frame buffer its body points into and whether it runs on this
     * connection's network thread ({@link InlineRequests}) rather than in the handler pool.
     */
    private record PendingRequest(Runnable task, InboundFrame frame, boolean inline) {
    }

    /** One parsed request and the handler that serves it. */
    private record Call(AsyncRequestHandler<?, ?> handler, ApiRequest<ApiMessage> request) {
        ApiKey api() {
            return request.api();
        }

        short version() {
            return request.version();
        }

        /** Whether it is a Fetch from a replica (Kafka's FetchFollower in the request metrics). */
        boolean followerFetch() {
            if (!(request.body() instanceof FetchRequest fetch)) {
                return false;
            }
            return (request.version() >= 15 ? fetch.replicaState().replicaId() : fetch.replicaId()) >= 0;
        }

        int correlationId() {
            return request.correlationId();
        }

        /** The client id, made safe for a log line. */
        String clientId() {
            return LogText.of(request.header().clientId());
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        CompletableFuture<HandlerResponse> handle(RequestContext context) {
            // The registry keys each handler by its API, and the body was read as that API's request class.
            return ((AsyncRequestHandler) handler).handle(context, request);
        }

        /** The API's all-failed response, if it has one. */
        @SuppressWarnings({"unchecked", "rawtypes"})
        Optional<HandlerResponse> errorResponse() {
            Optional<ApiMessage> body = ((AsyncRequestHandler) handler).errorResponse(request,
                    Errors.UNKNOWN_SERVER_ERROR);
            return body.map(HandlerResponse::of);
        }
    }

    private void run(Call call, long sequence, InboundFrame requestFrame, long receivedNanos, int sizeBytes) {
        long startedNanos = System.nanoTime();
        CompletableFuture<HandlerResponse> answer;
        try {
            answer = call.handle(context);
        } catch (Throwable e) {
            // Like Kafka's request handlers: whatever a handler throws becomes that request's failure, so the
            // connection's next requests still run and the pool thread survives.
            answer = CompletableFuture.failedFuture(e);
        } finally {
            // Bytes and records of the body are views of this buffer, valid until handle returns: a long poll
            // must not pin the connection's read buffer while it waits.
            requestFrame.release();
        }
        long returnedNanos = System.nanoTime();
        if (answer.isDone()) {
            // Answered at once (most requests; whenComplete runs here): one hand-off to the event loop starts the
            // next request and writes this answer, where two could wake its selector twice.
            answer.whenComplete((response, failure) -> {
                Answer outbound = answer(call, sizeBytes, receivedNanos, startedNanos, returnedNanos, response,
                        failure);
                onEventLoop(() -> {
                    handlerReturned();
                    release(sequence, outbound);
                }, outbound);
            });
            return;
        }
        // The next request may start now: what this one changes (e.g. an append) is done, while its answer
        // (a long poll, a replication wait) may still be pending.
        try {
            ctx.executor().execute(this::handlerReturned);
        } catch (RejectedExecutionException e) {
            LOG.debug("Not starting further requests: the server is shutting down");
        }
        answer.whenComplete((response, failure) -> {
            Answer outbound = answer(call, sizeBytes, receivedNanos, startedNanos, returnedNanos, response, failure);
            onEventLoop(() -> release(sequence, outbound), outbound);
        });
    }

    /** A handler's outcome as the answer to write, with its throttle time applied. */
    private Answer answer(Call call, int sizeBytes, long receivedNanos, long startedNanos, long returnedNanos,
                          HandlerResponse response, Throwable failure) {
        int throttleMs = quotas == null || failure != null ? 0
                : throttle(call, sizeBytes, returnedNanos - startedNanos, response);
        return new Answer(safeOutbound(call, response, failure), call, sizeBytes, receivedNanos, startedNanos,
                returnedNanos, System.nanoTime(), throttleMs);
    }

    private void onEventLoop(Runnable task, Answer outbound) {
        try {
            ctx.executor().execute(task);
        } catch (RejectedExecutionException e) {
            outbound.discard();
            LOG.debug("Dropping {} response: the server is shutting down", outbound.call().api().apiName());
        }
    }

    /**
     * Records the request against the client's quotas and sets the answer's throttle time; 0 when the client is
     * within its quotas, has none, or no quota is set at all (then only {@link ClientQuotas#active} runs).
     */
    private int throttle(Call call, int sizeBytes, long handlerNanos, HandlerResponse response) {
        if (response instanceof HandlerResponse.CloseConnection || !quotas.active()) {
            return 0;
        }
        try {
            // An acks=0 Produce has no answer to carry the throttle time, but still counts and mutes the connection.
            return quotas.throttle(call.request(), sizeBytes, handlerNanos, context.principal(),
                    response instanceof HandlerResponse.Body body ? body.body() : null);
        } catch (RuntimeException e) {
            LOG.warn("Client quota of client {} at {} not applied to {}: {}", call.clientId(),
                    context.clientAddress(), call.api().apiName(), e.toString());
            return 0;
        }
    }

    /**
     * Mutes the connection for the throttle time its answer carried (KIP-219): no request is read or started until
     * then, as a client that ignores the throttle time would otherwise go on at its own pace.
     */
    private void throttleConnection(int throttleMs) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(throttleMs);
        if (throttled && until - throttledUntilNanos <= 0) {
            return;
        }
        throttledUntilNanos = until;
        throttled = true;
        gate.pause(ReadGate.Reason.THROTTLED);
        ctx.executor().schedule(this::throttleEnded, throttleMs, TimeUnit.MILLISECONDS);
    }

    private void throttleEnded() {
        if (!throttled) {
            return;
        }
        long leftNanos = throttledUntilNanos - System.nanoTime();
        if (leftNanos > 0) {
            ctx.executor().schedule(this::throttleEnded, leftNanos, TimeUnit.NANOSECONDS);
            return;
        }
        throttled = false;
        gate.resume(ReadGate.Reason.THROTTLED);
        startNext();
    }

    /** The response to send; never throws, since the request's turn must pass or the connection would stall. */
    private OutboundResponse safeOutbound(Call call, HandlerResponse response, Throwable failure) {
        try {
            return toOutbound(call, response, failure);
        } catch (Throwable e) {
            LOG.error("Closing connection from {}: {} v{} response for client {} could not be built",
                    context.clientAddress(), call.api().apiName(), call.version(), call.clientId(), e);
            return OutboundResponse.CLOSE;
        }
    }

    private OutboundResponse toOutbound(Call call, HandlerResponse response, Throwable failure) {
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            Optional<HandlerResponse> errorBody = Optional.empty();
            try {
                errorBody = call.errorResponse();
            } catch (RuntimeException e) {
                cause.addSuppressed(e);
            }
            if (errorBody.isEmpty()) {
                LOG.error("Closing connection from {}: {} v{} handler failed for correlation id {} from client {}",
                        context.clientAddress(), call.api().apiName(), call.version(), call.correlationId(),
                        call.clientId(), cause);
                return OutboundResponse.CLOSE;
            }
            LOG.error("{} v{} handler failed for correlation id {} from client {} at {}; answered UNKNOWN_SERVER_ERROR",
                    call.api().apiName(), call.version(), call.correlationId(), call.clientId(),
                    context.clientAddress(), cause);
            response = errorBody.get();
        }
        if (response instanceof HandlerResponse.NoResponse) {
            return OutboundResponse.NOTHING;
        }
        if (response instanceof HandlerResponse.CloseConnection close) {
            LOG.info("Closing connection from {} (client {}) after {} v{}: {}", context.clientAddress(),
                    call.clientId(), call.api().apiName(), call.version(), close.reason());
            return OutboundResponse.CLOSE;
        }
        boolean thenClose = response instanceof HandlerResponse.BodyThenClose;
        if (response instanceof HandlerResponse.BodyThenClose last) {
            LOG.debug("Closing connection from {} (client {}) after answering {} v{}: {}", context.clientAddress(),
                    call.clientId(), call.api().apiName(), call.version(), last.reason());
        }
        try {
            ApiMessage body = thenClose ? ((HandlerResponse.BodyThenClose) response).body()
                    : ((HandlerResponse.Body) response).body();
            if (body.apiKey() != call.api().id()) {
                throw new IllegalStateException(call.api().apiName() + " handler answered a body of API key "
                        + body.apiKey());
            }
            OutboundResponse framed = OutboundResponse.frame(ctx.alloc(), call.api(), call.version(),
                    call.correlationId(), body, tls);
            return thenClose ? framed.thenClose() : framed;
        } catch (RuntimeException e) {
            LOG.error("Closing connection from {}: {} v{} response for correlation id {} from client {} could not be"
                    + " written", context.clientAddress(), call.api().apiName(), call.version(),
                    call.correlationId(), call.clientId(), e);
            return OutboundResponse.CLOSE;
        }
    }

    private void answerUnsupportedVersion(UnsupportedApiVersionException e, ByteBuffer frame) {
        ApiKey api = e.api();
        ByteBuffer answer = null;
        if (e.isApiVersionsRequest()) {
            // KIP-511: answer at v0 with our ranges so the client can retry at a version we know.
            ApiVersionsResponse body = registry.apiVersions().toApiVersionsResponse(Errors.UNSUPPORTED_VERSION);
            answer = ResponseFrame.toBuffer(ApiKey.API_VERSIONS, (short) 0, e.correlationId(), body);
        } else if (api == ApiKey.PRODUCE && api.advertisedVersions().contains(e.apiVersion())) {
            if (authenticator != null && authenticator.refusal(api, System.nanoTime()).isPresent()) {
                closeUnauthenticated("Produce v" + e.apiVersion() + " before SASL authentication");
                return;
            }
            answer = LegacyProduceRejection.responseFrame(frame, e.apiVersion());
        }
        if (answer == null) {
            closeOnBadRequest(e);
            return;
        }
        long sequence = sequencer.nextSequence();
        release(sequence, Answer.withoutRequest(OutboundResponse.of(answer, ctx.alloc())));
    }

    /**
     * Starts the connection's next request unless one is running: like Kafka, requests of one connection run
     * one after the other, so pipelined produce requests append in the order they were sent. Nor does one start
     * while the client is not reading its responses (the channel is not writable): what a connection's unread
     * answers hold is then its outbound buffer's high water mark plus one response, not one response per request
     * it managed to send (a Metadata request of 50 bytes can be answered with megabytes).
     */
    private void startNext() {
        if (handlerRunning || waitingForPoolSpace || throttled || pending.isEmpty() || clientNotReading()) {
            updateAutoRead();
            return;
        }
        // Requests that arrived before the client hung up still run (an acks=0 producer may send and close at
        // once); only their answers are dropped.
        if (pending.peek().inline()) {
            // Its completion is queued on this event loop (no wake-up), which then starts the next request.
            handlerRunning = true;
            pending.poll().task().run();
        } else if (pool.trySubmit(pending.peek().task())) {
            pending.poll();
            handlerRunning = true;
        } else {
            waitingForPoolSpace = true;
            pool.whenSpaceAvailable(() -> ctx.executor().execute(() -> {
                waitingForPoolSpace = false;
                startNext();
            }));
        }
        updateAutoRead();
    }

    /** The client is connected but not reading its responses (a closed channel is never writable). */
    private boolean clientNotReading() {
        return ctx.channel().isActive() && !ctx.channel().isWritable();
    }

    private void handlerReturned() {
        handlerRunning = false;
        startNext();
    }

    /**
     * Reads no further requests while enough are waiting, enough answers are outstanding or the pool is full
     * (back-pressure, bounded memory).
     */
    private void updateAutoRead() {
        gate.set(ReadGate.Reason.PENDING_REQUESTS, pending.size() >= MAX_PENDING_REQUESTS);
        gate.set(ReadGate.Reason.HANDLER_QUEUE, waitingForPoolSpace);
        gate.set(ReadGate.Reason.IN_FLIGHT_REQUESTS, sequencer.pending() >= MAX_IN_FLIGHT_REQUESTS);
    }

    private void release(long sequence, Answer answer) {
        if (closing) {
            answer.discard();
            return;
        }
        boolean wrote = false;
        for (Answer ready : sequencer.complete(sequence, answer)) {
            if (closing) {
                ready.discard();
                continue;
            }
            OutboundResponse response = ready.response();
            if (!response.isEmpty()) {
                response.write(ctx);
                wrote = true;
                ready.recordSent(requestMetrics, context);
            } else if (!response.closesConnection()) {
                ready.recordSent(requestMetrics, context);
            }
            if (response.closesConnection()) {
                // Whatever was written (a failed authentication's answer) is flushed before the close below.
                closing = true;
            }
            if (ready.throttleMs() > 0 && !closing) {
                throttleConnection(ready.throttleMs());
            }
        }
        if (closing) {
            ctx.flush();
            ctx.close();
            return;
        }
        if (wrote) {
            ctx.flush();
        }
        updateAutoRead();
    }

    /** Kafka's answer to a request a SASL connection may not make yet (or no longer): the connection closes. */
    private void closeUnauthenticated(String why) {
        closing = true;
        LOG.info("Closing connection from {} on listener {}: {}", ctx.channel().remoteAddress(), listenerName, why);
        ctx.close();
    }

    private void closeOnBadRequest(RequestParseException e) {
        closing = true;
        LOG.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), e.getMessage());
        ctx.close();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        // A client that does not read its responses gets no more requests read or started until it catches up.
        gate.set(ReadGate.Reason.UNWRITABLE, !ctx.channel().isWritable());
        if (ctx.channel().isWritable()) {
            startNext();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closing = true;
        // Answers ready but waiting behind a slower one are never sent now: their buffers go back to the pool.
        sequencer.takeHeld().forEach(Answer::discard);
        // Requests held back while the client did not read still run (their answers are dropped).
        startNext();
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent) {
            closing = true;
            LOG.info("Closing connection from {}: idle longer than {}", ctx.channel().remoteAddress(),
                    SocketServerConfig.CONNECTIONS_MAX_IDLE_MS);
            ctx.close();
            return;
        }
        if (event instanceof SslHandshakeCompletionEvent handshake && handshake.isSuccess()) {
            TlsPrincipals.ofPeer(ctx.pipeline().get(SslHandler.class)).ifPresent(context.session()::authenticated);
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!closing) {
            closing = true;
            Throwable tlsFailure = cause instanceof DecoderException && cause.getCause() != null
                    ? cause.getCause() : cause;
            if (tlsFailure instanceof SSLException) {
                // A client that fails the handshake (plaintext on a TLS port, an untrusted or missing certificate):
                // an authentication failure of that client, logged at info as Kafka does.
                LOG.info("Closing connection from {} on listener {}: TLS failed: {}", ctx.channel().remoteAddress(),
                        listenerName, tlsFailure.getMessage());
            } else if (cause instanceof java.io.IOException) {
                // The client went away (a reset, a broken pipe): its business, as in Kafka, which logs it at debug.
                LOG.debug("Closing connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
            } else {
                LOG.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
            }
        }
        ctx.close();
    }
}
