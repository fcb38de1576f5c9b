package io.kraft.broker.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits in the listening channel's pipeline and sees each accepted connection first: connections arriving faster
 * than {@code max.connection.creation.rate} wait their turn (accepting pauses meanwhile, so further ones wait in
 * the kernel's backlog), and one over {@code max.connections} or its address's {@code max.connections.per.ip}
 * is closed at once. Refusals are logged at most once per {@value #LOG_INTERVAL_MS} ms, with a count, so a
 * flood does not flood the log too. Nothing is accepted before {@link #open}, so a listener can be bound (its port
 * known and advertised) before it serves. Runs on the acceptor's event loop only.
 */
final class ConnectionAcceptor extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionAcceptor.class);
    private static final long LOG_INTERVAL_MS = 10_000;

    private final ConnectionQuotas quotas;
    private final CreationRate rate;
    private final String listenerName;
    private final LongSupplier nanoTime;
    /** Accepted connections waiting for the creation rate to let them in, in arrival order. */
    private final ArrayDeque<Channel> waiting = new ArrayDeque<>();
    private boolean drainScheduled;
    private long refusedSinceLog;
    private long lastLogNanos;
    /** Written on the acceptor's event loop, read by others for tests. */
    private volatile boolean open;

    ConnectionAcceptor(ConnectionQuotas quotas, int maxCreationsPerSecond, String listenerName, LongSupplier nanoTime) {
        this.quotas = quotas;
        this.rate = new CreationRate(maxCreationsPerSecond, nanoTime.getAsLong());
        this.listenerName = listenerName;
        this.nanoTime = nanoTime;
    }

    /** Starts accepting on {@code listening}, the channel this handler sits in; on its event loop. */
    void open(Channel listening) {
        if (open || !listening.isOpen()) {
            return;
        }
        open = true;
        listening.config().setAutoRead(true);
    }

    boolean isOpen() {
        return open;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        waiting.add((Channel) msg);
        drain(ctx);
    }

    /** Lets waiting connections in as the rate allows; pauses accepting while any must wait. */
    private void drain(ChannelHandlerContext ctx) {
        while (!waiting.isEmpty()) {
            long waitNanos = rate.tryAcquire(nanoTime.getAsLong());
            if (waitNanos > 0) {
                ctx.channel().config().setAutoRead(false);
                if (!drainScheduled) {
                    drainScheduled = true;
                    ctx.executor().schedule(() -> {
                        drainScheduled = false;
                        drain(ctx);
                    }, waitNanos, TimeUnit.NANOSECONDS);
                }
                return;
            }
            admit(ctx, waiting.poll());
        }
        if (open && ctx.channel().isOpen() && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void admit(ChannelHandlerContext ctx, Channel child) {
        InetAddress address = child.remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress() : null;
        ConnectionQuotas.Admission admission = address == null ? ConnectionQuotas.Admission.ADMITTED
                : quotas.tryAcquire(address);
        if (admission != ConnectionQuotas.Admission.ADMITTED) {
            refused(address, admission);
            child.unsafe().closeForcibly();
            return;
        }
        if (address != null) {
            child.closeFuture().addListener(f -> quotas.release(address, true));
        }
        ctx.fireChannelRead(child);
    }

    private void refused(InetAddress address, ConnectionQuotas.Admission admission) {
        refusedSinceLog++;
        long now = nanoTime.getAsLong();
        if (lastLogNanos == 0 || now - lastLogNanos >= TimeUnit.MILLISECONDS.toNanos(LOG_INTERVAL_MS)) {
            LOG.warn("Refused {} connection(s) on {}; the last from {}: {} ({} open, {} from that address)",
                    refusedSinceLog, listenerName, address.getHostAddress(),
                    admission == ConnectionQuotas.Admission.LISTENER_FULL ? NetworkLimits.MAX_CONNECTIONS
                            : NetworkLimits.MAX_CONNECTIONS_PER_IP, quotas.open(), quotas.open(address));
            refusedSinceLog = 0;
            lastLogNanos = now;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Channel child;
        while ((child = waiting.poll()) != null) {
            child.unsafe().closeForcibly();
        }
        super.channelInactive(ctx);
    }

    /**
     * A token bucket of one second's worth of connections: each creation takes a token and tokens come back at
     * the configured rate.
     */
    static final class CreationRate {
        private final double tokensPerNano;
        private final double capacity;
        private double tokens;
        private long lastNanos;

        CreationRate(int perSecond, long nowNanos) {
            this.capacity = perSecond;
            this.tokensPerNano = perSecond / 1e9;
            this.tokens = capacity;
            this.lastNanos = nowNanos;
        }

        /** Takes a token and returns 0, or returns how long until one is there (taking nothing). */
        long tryAcquire(long nowNanos) {
            tokens = Math.min(capacity, tokens + (nowNanos - lastNanos) * tokensPerNano);
            lastNanos = nowNanos;
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - tokens) / tokensPerNano));
        }
    }
}
