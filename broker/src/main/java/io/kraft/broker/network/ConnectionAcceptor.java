package io.kraft.broker.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits in the listening channel's pipeline and sees each accepted connection first: one over
 * {@code max.connections} or its address's {@code max.connections.per.ip} is closed at once, and accepting
 * pauses (new connections wait in the kernel's backlog) while arrivals outrun
 * {@code max.connection.creation.rate}. Refusals are logged at most once per {@value #LOG_INTERVAL_MS} ms, with
 * a count, so a flood does not flood the log too.
 */
final class ConnectionAcceptor extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionAcceptor.class);
    private static final long LOG_INTERVAL_MS = 10_000;

    private final ConnectionQuotas quotas;
    private final CreationRate rate;
    private final String listenerName;
    private final LongSupplier nanoTime;
    private long refusedSinceLog;
    private long lastLogNanos;

    ConnectionAcceptor(ConnectionQuotas quotas, int maxCreationsPerSecond, String listenerName, LongSupplier nanoTime) {
        this.quotas = quotas;
        this.rate = new CreationRate(maxCreationsPerSecond, nanoTime.getAsLong());
        this.listenerName = listenerName;
        this.nanoTime = nanoTime;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        InetAddress address = child.remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress() : null;
        ConnectionQuotas.Admission admission = address == null ? ConnectionQuotas.Admission.ADMITTED
                : quotas.tryAcquire(address);
        long now = nanoTime.getAsLong();
        long waitNanos = rate.recordCreation(now);
        if (waitNanos > 0) {
            ctx.channel().config().setAutoRead(false);
            ctx.executor().schedule(() -> ctx.channel().config().setAutoRead(true), waitNanos, TimeUnit.NANOSECONDS);
        }
        if (admission != ConnectionQuotas.Admission.ADMITTED) {
            refused(address, admission, now);
            child.unsafe().closeForcibly();
            return;
        }
        if (address != null) {
            child.closeFuture().addListener(f -> quotas.release(address, true));
        }
        ctx.fireChannelRead(child);
    }

    private void refused(InetAddress address, ConnectionQuotas.Admission admission, long now) {
        refusedSinceLog++;
        if (now - lastLogNanos >= TimeUnit.MILLISECONDS.toNanos(LOG_INTERVAL_MS) || lastLogNanos == 0) {
            LOG.warn("Refused {} connection(s) on {}; the last from {}: {} ({} open, {} from that address)",
                    refusedSinceLog, listenerName, address.getHostAddress(),
                    admission == ConnectionQuotas.Admission.LISTENER_FULL ? NetworkLimits.MAX_CONNECTIONS
                            : NetworkLimits.MAX_CONNECTIONS_PER_IP, quotas.open(), quotas.open(address));
            refusedSinceLog = 0;
            lastLogNanos = now;
        }
    }

    /**
     * A token bucket of one second's worth of connections: each creation takes a token, tokens come back at the
     * configured rate, and when none is left the acceptor waits until one is.
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

        /** Takes a token; returns how long to wait before accepting the next connection (0: no wait). */
        long recordCreation(long nowNanos) {
            tokens = Math.min(capacity, tokens + (nowNanos - lastNanos) * tokensPerNano);
            lastNanos = nowNanos;
            tokens -= 1;
            return tokens >= 1 ? 0 : (long) Math.ceil((1 - tokens) / tokensPerNano);
        }
    }
}
