package io.kraft.broker.network;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts one connection's responses back in request order: each request takes the next sequence number,
 * and a completed response is held until every earlier one has been released. Owned by one thread
 * (the connection's event loop).
 *
 * @param <R> the response type
 */
final class ResponseSequencer<R> {
    private final Map<Long, R> completedEarly = new HashMap<>();
    private long nextAssigned;
    private long nextToRelease;

    /** The sequence number of a newly arrived request. */
    long nextSequence() {
        return nextAssigned++;
    }

    /** Records the response of {@code sequence} and returns, in order, every response now releasable. */
    List<R> complete(long sequence, R response) {
        if (sequence < nextToRelease || sequence >= nextAssigned || completedEarly.containsKey(sequence)) {
            throw new IllegalStateException("Response for request " + sequence + " completed twice or never assigned"
                    + " (released up to " + nextToRelease + ", assigned up to " + nextAssigned + ")");
        }
        completedEarly.put(sequence, response);
        List<R> ready = new ArrayList<>(1);
        R next;
        while ((next = completedEarly.remove(nextToRelease)) != null) {
            ready.add(next);
            nextToRelease++;
        }
        return ready;
    }

    /**
     * Takes every response completed but held behind an earlier one, for a connection that went away: they will
     * never be released in order, so their owner frees them. Later completions are the caller's to drop.
     */
    List<R> takeHeld() {
        List<R> held = new ArrayList<>(completedEarly.values());
        completedEarly.clear();
        return held;
    }

    /** Requests whose responses have not been released yet. */
    long pending() {
        return nextAssigned - nextToRelease;
    }
}
