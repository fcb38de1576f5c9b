package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiVersionsTable;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.RequestFrame;
import io.kraft.broker.protocol.RequestParseException;
import io.kraft.broker.protocol.ResponseFrame;
import io.kraft.broker.protocol.UnsupportedApiVersionException;
import io.kraft.broker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's request path: parses each frame, runs its handler on the shared pool, and writes the
 * responses back strictly in request order, whichever thread completes them. Its state is touched only on
 * the connection's event loop; completions hop back onto it. When the pool is full, the connection stops
 * reading until its waiting requests have been queued (back-pressure instead of an unbounded queue).
 *
 * <p>A request's frame buffer (pooled) is held until its response is built, since parsed bodies are
 * slices of it (zero copy); a handler that fails gets its API's error response where one exists, else
 * the connection is closed with one log line naming the client and API.
 */
final class RequestChannel extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(RequestChannel.class);
    private static final short UNSUPPORTED_VERSION = 35;
    private static final short UNKNOWN_SERVER_ERROR = -1;

    private final RequestHandlerRegistry registry;
    private final RequestHandlerPool pool;
    private final String listenerName;
    private final ResponseSequencer<OutboundResponse> sequencer = new ResponseSequencer<>();
    private final ArrayDeque<PendingRequest> waitingForPool = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private RequestContext context;
    private boolean closing;

    RequestChannel(RequestHandlerRegistry registry, RequestHandlerPool pool, String listenerName) {
        this.registry = registry;
        this.pool = pool;
        this.listenerName = listenerName;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        this.context = new RequestContext(listenerName, ctx.channel().remoteAddress(), registry.apiVersions());
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (closing) {
            frame.release();
            return;
        }
        ByteBuffer bytes;
        if (frame.nioBufferCount() == 1) {
            bytes = frame.nioBuffer();
        } else {
            bytes = ByteBuffer.allocate(frame.readableBytes());
            frame.readBytes(bytes);
            bytes.flip();
            frame.release();
            frame = null;
        }
        ApiVersionsTable table = registry.apiVersions();
        ParsedRequest request;
        try {
            request = RequestFrame.parse(bytes, table);
        } catch (UnsupportedApiVersionException e) {
            answerUnsupportedVersion(e, bytes);
            release(frame);
            return;
        } catch (RequestParseException e) {
            release(frame);
            closeOnBadRequest(e);
            return;
        }
        AsyncRequestHandler handler = registry.handler(request.api());
        long sequence = sequencer.nextSequence();
        ByteBuf requestFrame = frame;
        dispatch(new PendingRequest(() -> run(handler, request, sequence, requestFrame), requestFrame));
    }

    /** A request waiting for room in the handler pool, with the frame buffer its body points into. */
    private record PendingRequest(Runnable task, ByteBuf frame) {
    }

    private void run(AsyncRequestHandler handler, ParsedRequest request, long sequence, ByteBuf requestFrame) {
        CompletableFuture<HandlerResponse> answer;
        try {
            answer = handler.handle(context, request);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((response, failure) -> {
            OutboundResponse outbound;
            try {
                outbound = toOutbound(handler, request, response, failure);
            } finally {
                release(requestFrame);
            }
            try {
                ctx.executor().execute(() -> release(sequence, outbound));
            } catch (RejectedExecutionException e) {
                outbound.discard();
                LOG.debug("Dropping {} response: the server is shutting down", request.api().apiName());
            }
        });
    }

    private OutboundResponse toOutbound(AsyncRequestHandler handler, ParsedRequest request, HandlerResponse response,
                                        Throwable failure) {
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            Optional<Struct> errorBody = Optional.empty();
            try {
                errorBody = handler.errorResponse(request, UNKNOWN_SERVER_ERROR);
            } catch (RuntimeException e) {
                cause.addSuppressed(e);
            }
            if (errorBody.isEmpty()) {
                LOG.error("Closing connection from {}: {} v{} handler failed for correlation id {} from client {}",
                        context.clientAddress(), request.api().apiName(), request.version(), request.correlationId(),
                        request.header().clientId(), cause);
                return OutboundResponse.CLOSE;
            }
            LOG.error("{} v{} handler failed for correlation id {} from client {} at {}; answered UNKNOWN_SERVER_ERROR",
                    request.api().apiName(), request.version(), request.correlationId(), request.header().clientId(),
                    context.clientAddress(), cause);
            response = HandlerResponse.of(errorBody.get());
        }
        if (response instanceof HandlerResponse.NoResponse) {
            return OutboundResponse.NOTHING;
        }
        if (response instanceof HandlerResponse.CloseConnection close) {
            LOG.info("Closing connection from {} (client {}) after {} v{}: {}", context.clientAddress(),
                    request.header().clientId(), request.api().apiName(), request.version(), close.reason());
            return OutboundResponse.CLOSE;
        }
        Struct body = ((HandlerResponse.Body) response).body();
        try {
            return OutboundResponse.frame(ctx.alloc(), request.api(), request.version(), request.correlationId(), body);
        } catch (RuntimeException e) {
            LOG.error("Closing connection from {}: {} v{} response for correlation id {} from client {} could not be"
                    + " written", context.clientAddress(), request.api().apiName(), request.version(),
                    request.correlationId(), request.header().clientId(), e);
            return OutboundResponse.CLOSE;
        }
    }

    private void answerUnsupportedVersion(UnsupportedApiVersionException e, ByteBuffer frame) {
        ApiKey api = e.api();
        ByteBuffer answer = null;
        if (e.isApiVersionsRequest()) {
            // KIP-511: answer at v0 with our ranges so the client can retry at a version we know.
            Struct body = registry.apiVersions().toApiVersionsResponse(UNSUPPORTED_VERSION);
            answer = ResponseFrame.toBuffer(ApiKey.API_VERSIONS, (short) 0, e.correlationId(), body);
        } else if (api == ApiKey.PRODUCE && api.advertisedVersions().contains(e.apiVersion())) {
            answer = LegacyProduceRejection.responseFrame(frame, e.apiVersion());
        }
        if (answer == null) {
            closeOnBadRequest(e);
            return;
        }
        long sequence = sequencer.nextSequence();
        release(sequence, OutboundResponse.of(answer, ctx.alloc()));
    }

    private static void release(ByteBuf frame) {
        if (frame != null) {
            frame.release();
        }
    }

    private void dispatch(PendingRequest request) {
        if (waitingForPool.isEmpty() && pool.trySubmit(request.task())) {
            return;
        }
        waitingForPool.add(request);
        if (ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
            pool.whenSpaceAvailable(() -> ctx.executor().execute(this::drainWaiting));
        }
    }

    private void drainWaiting() {
        while (!waitingForPool.isEmpty()) {
            if (!ctx.channel().isActive()) {
                // Nobody will read the answers: drop the requests and free their frames.
                waitingForPool.forEach(pending -> release(pending.frame()));
                waitingForPool.clear();
                return;
            }
            if (!pool.trySubmit(waitingForPool.peek().task())) {
                pool.whenSpaceAvailable(() -> ctx.executor().execute(this::drainWaiting));
                return;
            }
            waitingForPool.poll();
        }
        ctx.channel().config().setAutoRead(true);
    }

    private void release(long sequence, OutboundResponse response) {
        if (closing) {
            response.discard();
            return;
        }
        boolean wrote = false;
        for (OutboundResponse ready : sequencer.complete(sequence, response)) {
            if (closing) {
                ready.discard();
                continue;
            }
            if (ready.closesConnection()) {
                closing = true;
                continue;
            }
            if (!ready.isEmpty()) {
                ready.write(ctx);
                wrote = true;
            }
        }
        if (closing) {
            ctx.flush();
            ctx.close();
        } else if (wrote) {
            ctx.flush();
        }
    }

    private void closeOnBadRequest(RequestParseException e) {
        closing = true;
        LOG.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), e.getMessage());
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closing = true;
        waitingForPool.forEach(pending -> release(pending.frame()));
        waitingForPool.clear();
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
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!closing) {
            closing = true;
            LOG.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        ctx.close();
    }
}
