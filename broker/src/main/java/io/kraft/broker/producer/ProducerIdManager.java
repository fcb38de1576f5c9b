package io.kraft.broker.producer;

import io.kraft.metadata.controller.ProducerIdBlock;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out producer ids on one broker from blocks the controller allocates to it. The next block is asked for
 * once 90% of the current one is used, so a busy broker rarely waits; blocks are recorded in the metadata log,
 * so no id is handed out twice, not even across restarts (a restarted broker starts a fresh block). An id is
 * answered as a future, so no thread waits for the controller. Thread-safe.
 */
public final class ProducerIdManager {
    private static final Logger LOG = LoggerFactory.getLogger(ProducerIdManager.class);
    /** The share of a block used before the next one is requested. */
    static final double PREFETCH_THRESHOLD = 0.9;

    /** Where blocks come from: the controller's allocateProducerIds. */
    @FunctionalInterface
    public interface BlockSource {
        CompletableFuture<ProducerIdBlock> allocate(int brokerId, long brokerEpoch);
    }

    private final int brokerId;
    private final LongSupplier brokerEpoch;
    private final BlockSource source;
    private final long allocationTimeoutMs;

    /** The block ids are handed out from; null before the first one arrives. */
    private ProducerIdBlock current;
    private long nextId;
    /** The block asked for (prefetched, or awaited by callers), until it is installed or fails. */
    private CompletableFuture<ProducerIdBlock> nextBlock;

    /**
     * @param brokerEpoch         this broker's current registration epoch, or -1 while it is not registered
     * @param allocationTimeoutMs how long a caller waits for a new block when the current one is used up
     */
    public ProducerIdManager(int brokerId, LongSupplier brokerEpoch, BlockSource source, long allocationTimeoutMs) {
        this.brokerId = brokerId;
        this.brokerEpoch = Objects.requireNonNull(brokerEpoch, "brokerEpoch");
        this.source = Objects.requireNonNull(source, "source");
        this.allocationTimeoutMs = allocationTimeoutMs;
    }

    /**
     * An id no producer has had before: completed at once while the current block lasts, else when the next
     * block arrives (on the thread that completes the controller's answer).
     *
     * @return the id, or a future failed with {@link ProducerIdsUnavailableException} if no block could be had
     *         within the allocation timeout (the broker is not registered yet, or the controller failed or did not
     *         answer); worth retrying
     */
    public CompletableFuture<Long> nextProducerId() {
        CompletableFuture<ProducerIdBlock> pending;
        synchronized (this) {
            if (hasIds()) {
                return CompletableFuture.completedFuture(takeId());
            }
            // A prefetch that failed is not worth reporting now: ask again.
            boolean usable = nextBlock != null && !nextBlock.isCompletedExceptionally();
            pending = usable ? nextBlock : requestBlock();
            nextBlock = pending;
        }
        // The timeout applies to this caller's wait only: the request stays, and a late block serves later callers.
        return pending.copy()
                .orTimeout(allocationTimeoutMs, TimeUnit.MILLISECONDS)
                .handle((block, failure) -> failure == null ? fromBlock(pending, block) : failed(pending, failure))
                .thenCompose(Function.identity());
    }

    /** Installs {@code block} unless it is old or ids remain, and hands out the next id (asking again if none). */
    private synchronized CompletableFuture<Long> fromBlock(CompletableFuture<ProducerIdBlock> pending,
                                                           ProducerIdBlock block) {
        // The controller's blocks only grow, so a block not past the current one was installed before.
        if (!hasIds() && (current == null || block.firstProducerId() > current.lastProducerId())) {
            LOG.info("Broker {} got producer ids {}..{}", brokerId, block.firstProducerId(), block.lastProducerId());
            current = block;
            nextId = block.firstProducerId();
            if (nextBlock == pending) {
                nextBlock = null;
            }
        }
        // Callers that waited for the same block share it; one that finds it used up asks for the next.
        return hasIds() ? CompletableFuture.completedFuture(takeId()) : nextProducerId();
    }

    private CompletableFuture<Long> failed(CompletableFuture<ProducerIdBlock> pending, Throwable failure) {
        if (failure instanceof TimeoutException) {
            // Raised by orTimeout on this caller's copy; a failure of the request itself arrives wrapped.
            return CompletableFuture.failedFuture(new ProducerIdsUnavailableException(
                    "the controller did not allocate producer ids within " + allocationTimeoutMs + " ms", failure));
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        synchronized (this) {
            if (nextBlock == pending) {
                nextBlock = null;
            }
        }
        return CompletableFuture.failedFuture(new ProducerIdsUnavailableException(
                "the controller refused a block of producer ids: " + cause.getMessage(), cause));
    }

    private boolean hasIds() {
        return current != null && nextId <= current.lastProducerId();
    }

    private long takeId() {
        long id = nextId++;
        if (nextBlock == null && nextId - current.firstProducerId() >= PREFETCH_THRESHOLD * current.size()) {
            nextBlock = requestBlock();
        }
        return id;
    }

    private CompletableFuture<ProducerIdBlock> requestBlock() {
        long epoch = brokerEpoch.getAsLong();
        if (epoch < 0) {
            return CompletableFuture.failedFuture(new IllegalStateException("broker " + brokerId
                    + " is not registered with the controller yet"));
        }
        return source.allocate(brokerId, epoch);
    }
}
