package io.kraft.metadata.loop;

/**
 * One thread of events owning some mutable state: events run one at a time, in the order they were queued, and
 * timed events run once their deadline on the loop's {@link Time#monotonicMs()} has passed. The controller and the
 * metadata publishers run on event loops; a real one has a thread ({@link SingleThreadEventLoop}), a simulation's
 * runs its events from a seeded scheduler.
 */
public interface EventLoop extends AutoCloseable {

    /** A timed event that may still be called off. */
    @FunctionalInterface
    interface Scheduled {
        /** Calls the event off if it has not run yet; a no-op otherwise. */
        void cancel();
    }

    /**
     * Queues {@code event} after every event queued before it.
     *
     * @param name names the event in log lines (and in a simulation's trace)
     * @return false if the loop is closed and the event will never run
     */
    boolean execute(String name, Runnable event);

    /**
     * Runs {@code event} once the loop's monotonic clock reaches {@code deadlineMs} (at once if it has), queued behind
     * the events already due. Nothing runs if the loop is closed first.
     */
    Scheduled schedule(String name, long deadlineMs, Runnable event);

    /** Whether the caller runs on this loop (an event may then act directly instead of queueing). */
    boolean inLoop();

    /** Stops the loop: events already queued still run (up to a bounded wait), later ones are refused. */
    @Override
    void close();
}
