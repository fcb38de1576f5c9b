package io.kraft.broker.network;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a broker's listeners share, as in Kafka, where these limits are the broker's and not a listener's: the
 * handler threads ({@code num.io.threads}, {@code queued.max.requests}), the request memory
 * ({@code queued.max.request.bytes}) and the connection limits ({@code max.connections[.per.ip]}) and the
 * network threads' idle-time sampling. Closed by the
 * broker after its listeners.
 */
public final class SharedNetworkResources implements AutoCloseable {
    final RequestHandlerPool handlers;
    final RequestMemoryPool memory;
    final ConnectionQuotas quotas;
    final NetworkThreads networkThreads = new NetworkThreads();
    private final AtomicBoolean sweepClaimed = new AtomicBoolean();

    /** The resources the settings of {@code config} (any of the broker's listeners: they share these keys) call for. */
    public SharedNetworkResources(SocketServerConfig config) {
        this.handlers = new RequestHandlerPool(config.ioThreads(), config.queuedMaxRequests());
        this.memory = new RequestMemoryPool(config.limits().requestMemoryBytes(config.requestMaxBytes()),
                config.limits().queuedMaxRequestStallMs(), System::nanoTime);
        this.quotas = new ConnectionQuotas(config.limits());
    }

    /** True for the first caller only: one listener runs the request memory's stall sweep for all of them. */
    boolean claimMemorySweep() {
        return sweepClaimed.compareAndSet(false, true);
    }

    @Override
    public void close() {
        handlers.close();
    }
}
