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
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's request path: parses each frame, runs its handler on the shared pool, and writes the
 * responses back strictly in request order. All of its state is touched only on the connection's event
 * loop; handler completions hop back onto it. When the pool is full, the connection stops reading until
 * its waiting requests have been queued (back-pressure instead of an unbounded queue).
 */
final class RequestChannel extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(RequestChannel.class);
    private static final short UNSUPPORTED_VERSION = 35;
    /** A failed handler leaves this in its slot: the connection closes when its turn comes. */
    private static final Optional<ByteBuffer> CLOSE_CONNECTION = Optional.empty();

    private final RequestHandlerRegistry registry;
    private final RequestHandlerPool pool;
    private final String listenerName;
    private final ResponseSequencer<Optional<ByteBuffer>> sequencer = new ResponseSequencer<>();
    private final ArrayDeque<Runnable> waitingForPool = new ArrayDeque<>();
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
        ByteBuffer bytes;
        try {
            // A heap copy: parsed bodies keep zero-copy slices of it after the Netty buffer is released.
            bytes = ByteBuffer.allocate(frame.readableBytes());
            frame.readBytes(bytes);
            bytes.flip();
        } finally {
            frame.release();
        }
        if (closing) {
            return;
        }
        ApiVersionsTable table = registry.apiVersions();
        ParsedRequest request;
        try {
            request = RequestFrame.parse(bytes, table);
        } catch (UnsupportedApiVersionException e) {
            if (e.isApiVersionsRequest()) {
                // KIP-511: answer at v0 with our ranges so the client can retry at a version we know.
                Struct body = table.toApiVersionsResponse(UNSUPPORTED_VERSION);
                long sequence = sequencer.nextSequence();
                release(sequence, Optional.of(ResponseFrame.toBuffer(ApiKey.API_VERSIONS, (short) 0,
                        e.correlationId(), body)));
                return;
            }
            closeOnBadRequest(e);
            return;
        } catch (RequestParseException e) {
            closeOnBadRequest(e);
            return;
        }
        RequestHandler handler = registry.handler(request.api());
        long sequence = sequencer.nextSequence();
        dispatch(() -> {
            Optional<ByteBuffer> response = run(handler, request);
            try {
                ctx.executor().execute(() -> release(sequence, response));
            } catch (RejectedExecutionException e) {
                LOG.debug("Dropping {} response: the server is shutting down", request.api().apiName());
            }
        });
    }

    private Optional<ByteBuffer> run(RequestHandler handler, ParsedRequest request) {
        try {
            Struct body = handler.handle(context, request);
            return Optional.of(ResponseFrame.toBuffer(request.api(), request.version(), request.correlationId(), body));
        } catch (RuntimeException e) {
            LOG.error("Closing connection from {}: {} v{} handler failed for correlation id {} from client {}",
                    context.clientAddress(), request.api().apiName(), request.version(), request.correlationId(),
                    request.header().clientId(), e);
            return CLOSE_CONNECTION;
        }
    }

    private void dispatch(Runnable task) {
        if (waitingForPool.isEmpty() && pool.trySubmit(task)) {
            return;
        }
        waitingForPool.add(task);
        if (ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
            pool.whenSpaceAvailable(() -> ctx.executor().execute(this::drainWaiting));
        }
    }

    private void drainWaiting() {
        while (!waitingForPool.isEmpty()) {
            if (!ctx.channel().isActive()) {
                waitingForPool.clear();
                return;
            }
            if (!pool.trySubmit(waitingForPool.peek())) {
                pool.whenSpaceAvailable(() -> ctx.executor().execute(this::drainWaiting));
                return;
            }
            waitingForPool.poll();
        }
        ctx.channel().config().setAutoRead(true);
    }

    private void release(long sequence, Optional<ByteBuffer> response) {
        if (closing) {
            return;
        }
        boolean wrote = false;
        for (Optional<ByteBuffer> ready : sequencer.complete(sequence, response)) {
            if (ready.isEmpty()) {
                closing = true;
                break;
            }
            ctx.write(Unpooled.wrappedBuffer(ready.get()));
            wrote = true;
        }
        if (closing) {
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(future -> ctx.close());
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
