package io.kraft.broker.network;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import io.kraft.broker.metrics.RequestMetrics;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's Kafka-protocol listener: accepts connections on one host:port, frames and parses requests
 * on Netty event loops, runs the registered handlers on a bounded pool and answers in request order.
 */
public final class KafkaServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaServer.class);

    private final SocketServerConfig config;
    private final RequestHandlerRegistry registry;
    private EventLoopGroup acceptorGroup;
    private EventLoopGroup networkGroup;
    private RequestHandlerPool pool;
    private RequestMemoryPool memory;
    private ConnectionQuotas quotas;
    private NetworkThreads networkThreads;
    private Channel serverChannel;
    private ConnectionAcceptor acceptor;

    private static final long IDLE_SAMPLE_MS = 5_000;

    private final RequestMetrics requestMetrics;
    private final KafkaMetrics metrics;
    private final KafkaMetrics ownMetrics;
    /** What the broker's listeners share, or null when this server has its own. */
    private final SharedNetworkResources shared;
    /** The listener's TLS, or null on a plaintext listener. */
    private final SslContext tls;
    /** The listener's SASL settings, or null on a listener without SASL. */
    private final SaslSettings sasl;
    private final ScramCredentials scramCredentials;

    /** A server whose request metrics are its own (not published in JMX): tests and tools. */
    public KafkaServer(SocketServerConfig config, RequestHandlerRegistry registry) {
        this(config, registry, KafkaMetrics.withoutJmx(), true);
    }

    /** A server recording its request metrics in the node's {@code metrics}. */
    public KafkaServer(SocketServerConfig config, RequestHandlerRegistry registry, KafkaMetrics metrics) {
        this(config, registry, metrics, false);
    }

    /**
     * One of a broker's listeners: it records its request metrics in the node's {@code metrics}, shares
     * {@code shared} (handler threads, request memory, connection limits; closed by their owner, not here) with the
     * broker's other listeners, and its connections speak TLS with {@code tls} (an SSL listener), or plaintext when
     * it is null.
     */
    public KafkaServer(SocketServerConfig config, RequestHandlerRegistry registry, KafkaMetrics metrics,
                       SslContext tls, SharedNetworkResources shared) {
        this(config, registry, metrics, false, tls, null, ScramCredentials.NONE, shared);
    }

    /**
     * As the constructor above, on a SASL listener ({@code sasl} not null): clients authenticate with one of its
     * mechanisms, SCRAM ones against {@code scramCredentials}, before any other request.
     */
    public KafkaServer(SocketServerConfig config, RequestHandlerRegistry registry, KafkaMetrics metrics,
                       SslContext tls, SaslSettings sasl, ScramCredentials scramCredentials,
                       SharedNetworkResources shared) {
        this(config, registry, metrics, false, tls, sasl, scramCredentials, shared);
    }

    private KafkaServer(SocketServerConfig config, RequestHandlerRegistry registry, KafkaMetrics metrics,
                        boolean ownsMetrics) {
        this(config, registry, metrics, ownsMetrics, null, null, ScramCredentials.NONE, null);
    }

    private KafkaServer(SocketServerConfig config, RequestHandlerRegistry registry, KafkaMetrics metrics,
                        boolean ownsMetrics, SslContext tls, SaslSettings sasl, ScramCredentials scramCredentials,
                        SharedNetworkResources shared) {
        this.tls = tls;
        this.sasl = sasl;
        this.scramCredentials = scramCredentials;
        this.shared = shared;
        this.config = config;
        this.registry = registry;
        this.metrics = metrics;
        this.requestMetrics = new RequestMetrics(metrics);
        this.ownMetrics = ownsMetrics ? metrics : null;
    }

    /** Binds the listener; returns once the server accepts connections. */
    public synchronized void start() throws InterruptedException {
        bind();
        startAccepting();
    }

    /**
     * Binds the listener without accepting connections yet: a client that connects meanwhile waits in the kernel's
     * accept backlog, and is served once {@link #startAccepting()} is called, never answered from a state that is not
     * ready. The port is known from here on ({@link #boundPort()}), so it can be advertised before serving.
     */
    public synchronized void bind() throws InterruptedException {
        if (serverChannel != null) {
            throw new IllegalStateException("Kafka server on listener " + config.listenerName() + " already started");
        }
        networkThreads = shared != null ? shared.networkThreads : new NetworkThreads();
        acceptorGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        networkGroup = new MultiThreadIoEventLoopGroup(config.networkThreads(),
                networkThreads.factory(config.listenerName()), NioIoHandler.newFactory());
        if (shared != null) {
            pool = shared.handlers;
            memory = shared.memory;
            quotas = shared.quotas;
        } else {
            pool = new RequestHandlerPool(config.ioThreads(), config.queuedMaxRequests());
            memory = new RequestMemoryPool(config.limits().requestMemoryBytes(config.requestMaxBytes()),
                    config.limits().queuedMaxRequestStallMs(), System::nanoTime);
            quotas = new ConnectionQuotas(config.limits());
        }
        if (shared == null || shared.claimMemorySweep()) {
            // Once per pool: the first listener of a node sweeps its memory and samples its handlers.
            long sweepMs = Math.max(10, Math.min(1_000, memory.maxStallMs() / 4));
            networkGroup.scheduleAtFixedRate(memory::closeStalledFrames, sweepMs, sweepMs, TimeUnit.MILLISECONDS);
            RequestHandlerPool handlers = pool;
            networkGroup.scheduleAtFixedRate(handlers::sampleIdleRatio, IDLE_SAMPLE_MS, IDLE_SAMPLE_MS,
                    TimeUnit.MILLISECONDS);
            metrics.gauge(MetricName.of("kafka.server", "KafkaRequestHandlerPool", "RequestHandlerAvgIdlePercent"),
                    "Share of the request handler threads' time spent idle (0-1) over the last 5 s",
                    handlers::idleRatio);
            NetworkThreads network = networkThreads;
            networkGroup.scheduleAtFixedRate(network::sample, IDLE_SAMPLE_MS, IDLE_SAMPLE_MS, TimeUnit.MILLISECONDS);
            metrics.gauge(MetricName.of("kafka.network", "SocketServer", "NetworkProcessorAvgIdlePercent"),
                    "Share of the network threads' time spent idle (0-1) over the last 5 s", network::idleRatio);
        }
        acceptor = new ConnectionAcceptor(quotas, config.limits().maxConnectionCreationRate(), config.listenerName(),
                System::nanoTime);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptorGroup, networkGroup)
                .channel(NioServerSocketChannel.class)
                // Accepting starts with startAccepting(): reading the listening channel is accepting.
                .option(ChannelOption.AUTO_READ, false)
                .handler(acceptor)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_SNDBUF, config.sendBufferBytes() == SocketServerConfig.OS_DEFAULT_BUFFER_BYTES
                        ? null : config.sendBufferBytes())
                .childOption(ChannelOption.SO_RCVBUF,
                        config.receiveBufferBytes() == SocketServerConfig.OS_DEFAULT_BUFFER_BYTES
                                ? null : config.receiveBufferBytes())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        ReadGate gate = new ReadGate(channel);
                        RequestFrameDecoder frames = new RequestFrameDecoder(config.requestMaxBytes(), memory, gate);
                        channel.config().setRecvByteBufAllocator(new RequestMemoryRecvAllocator(frames));
                        if (tls != null) {
                            // Decrypts before framing; encrypts what the request channel writes.
                            channel.pipeline().addLast("tls", ListenerSslHandlers.newHandler(tls, channel.alloc()));
                            // Fetched records reach it as chunked reads of their files, taken while writable.
                            channel.pipeline().addLast("chunks", new ChunkedWriteHandler());
                        }
                        channel.pipeline()
                                .addLast("idle", new IdleStateHandler(0, 0, config.connectionsMaxIdleMs(),
                                        TimeUnit.MILLISECONDS))
                                .addLast("frames", frames)
                                .addLast("requests", new RequestChannel(registry, pool, config.listenerName(), gate,
                                        requestMetrics, tls != null, sasl, scramCredentials));
                    }
                });
        InetSocketAddress address = config.host().isEmpty()
                ? new InetSocketAddress(config.port())
                : new InetSocketAddress(config.host(), config.port());
        try {
            serverChannel = bootstrap.bind(address).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            shutDownResources();
            throw e;
        } catch (Exception e) {
            // Netty rethrows the bind's IOException (address in use, no such address) undeclared.
            shutDownResources();
            String message = "cannot bind listener " + config.listenerName() + " on " + address + ": " + e.getMessage();
            throw new UncheckedIOException(message, new IOException(message, e));
        }
        String security = (tls != null ? "TLS by " + SslContextFactory.providerName(tls) : "plaintext")
                + (sasl == null ? "" : ", SASL " + String.join("/", sasl.enabledMechanisms()));
        LOG.info("Bound {} for Kafka clients ({}, {}), {} bytes of request memory", serverChannel.localAddress(),
                config.listenerName(), security, memory.capacityBytes());
    }

    /** Starts accepting the connections waiting in the backlog and those that follow; idempotent. */
    public synchronized void startAccepting() {
        if (serverChannel == null) {
            throw new IllegalStateException("Kafka server on listener " + config.listenerName() + " is not bound");
        }
        Channel channel = serverChannel;
        ConnectionAcceptor listening = acceptor;
        channel.eventLoop().execute(() -> listening.open(channel));
    }

    /** Whether connections are being accepted (for tests). */
    public synchronized boolean isAccepting() {
        return acceptor != null && acceptor.isOpen();
    }

    /** The port actually bound (the ephemeral one when the configured port is 0). */
    public synchronized int boundPort() {
        if (serverChannel == null) {
            throw new IllegalStateException("Kafka server on listener " + config.listenerName() + " is not started");
        }
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Bytes of request frames held right now (for tests and metrics). */
    public synchronized long requestMemoryInUseBytes() {
        RequestMemoryPool current = memory;
        return current == null ? 0 : current.usedBytes();
    }

    /** Connections open on the listener right now. */
    public synchronized int openConnections() {
        ConnectionQuotas current = quotas;
        return current == null ? 0 : current.open();
    }

    @Override
    public synchronized void close() {
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        shutDownResources();
    }

    private void shutDownResources() {
        if (acceptorGroup != null) {
            acceptorGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (networkGroup != null) {
            networkGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (pool != null && shared == null) {
            pool.close();
        }
        if (ownMetrics != null) {
            ownMetrics.close();
        }
    }
}
