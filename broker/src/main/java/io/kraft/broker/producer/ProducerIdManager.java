package io.kraft.broker.producer;

import io.kraft.metadata.controller.ProducerIdBlock;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out producer ids on one broker from blocks the controller allocates to it. The next block is asked for
 * once 90% of the current one is used, so a busy broker rarely waits; blocks are recorded in the metadata log,
 * so no id is handed out twice, not even across restarts (a restarted broker starts a fresh block). Thread-safe.
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

    private ProducerIdBlock current;
    private long nextId;
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
     * An id no producer has had before.
     *
     * @throws ProducerIdsUnavailableException if no block could be had in time (the broker is not registered yet,
     *                                         or the controller failed or did not answer); worth retrying
     */
    public synchronized long nextProducerId() {
        if (current == null || nextId > current.lastProducerId()) {
            current = awaitNextBlock();
            nextId = current.firstProducerId();
        }
        long id = nextId++;
        if (nextBlock == null && nextId - current.firstProducerId() >= PREFETCH_THRESHOLD * current.size()) {
            nextBlock = requestBlock();
        }
        return id;
    }

    private ProducerIdBlock awaitNextBlock() {
        // A prefetch that failed is not worth reporting now: ask again.
        boolean usable = nextBlock != null && !nextBlock.isCompletedExceptionally();
        CompletableFuture<ProducerIdBlock> pending = usable ? nextBlock : requestBlock();
        nextBlock = null;
        try {
            ProducerIdBlock block = pending.get(allocationTimeoutMs, TimeUnit.MILLISECONDS);
            LOG.info("Broker {} got producer ids {}..{}", brokerId, block.firstProducerId(), block.lastProducerId());
            return block;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProducerIdsUnavailableException("interrupted while waiting for a block of producer ids", e);
        } catch (TimeoutException e) {
            // Keep the request: its block may still arrive and serve the next caller.
            nextBlock = pending;
            throw new ProducerIdsUnavailableException("the controller did not allocate producer ids within "
                    + allocationTimeoutMs + " ms", e);
        } catch (ExecutionException | CompletionException e) {
            throw new ProducerIdsUnavailableException("the controller refused a block of producer ids: "
                    + e.getCause().getMessage(), e.getCause());
        }
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
