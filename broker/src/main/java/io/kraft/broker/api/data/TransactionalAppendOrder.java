package io.kraft.broker.api.data;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Keeps a transactional producer's appends in the order of its requests when one of them waits for the image to
 * show its partition in the transaction. A connection's requests start one after another, but a request that waits
 * appends later, from another thread; the producer's next request (pipelined, up to max.in.flight) could then append
 * first and be refused with OUT_OF_ORDER_SEQUENCE_NUMBER, while the waiting batch, appended after it, is accepted:
 * the client, seeing success then that error, fails the transaction. So a request of a transactional id with an
 * append still waiting appends after it. Kafka gets the same order from reading no further request of a connection
 * until the one in hand is answered.
 */
final class TransactionalAppendOrder {
    /** Per transactional id: completes once every waiting append of the id has been handed to the replica manager. */
    private final ConcurrentMap<String, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();

    /** What a new append of the id must come after, or null if nothing of the id is waiting. */
    CompletableFuture<Void> waitingFor(String transactionalId) {
        CompletableFuture<Void> last = waiting.get(transactionalId);
        return last == null || last.isDone() ? null : last;
    }

    /**
     * Records that an append of the id waits until {@code handedOver} completes (once the replica manager has the
     * records, or they were refused); the next {@link #waitingFor} answers it with whatever was waiting before.
     */
    void waits(String transactionalId, CompletableFuture<Void> handedOver) {
        CompletableFuture<Void> last = waiting.compute(transactionalId, (id, before) ->
                before == null || before.isDone() ? handedOver : CompletableFuture.allOf(before, handedOver));
        last.whenComplete((ignored, error) -> waiting.remove(transactionalId, last));
    }
}
