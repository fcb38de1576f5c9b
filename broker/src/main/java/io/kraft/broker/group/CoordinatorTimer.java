package io.kraft.broker.group;

/**
 * Time as the coordinator sees it: the clock, delayed tasks, and tasks queued to run after the current event.
 * Every task runs on the coordinator's single owner thread, so the state machine needs no locks; tests drive it
 * with a manual implementation, so rebalances and expiries are exercised without sleeping.
 */
public interface CoordinatorTimer {

    /** Milliseconds since the epoch. */
    long nowMs();

    /** Runs {@code task} on the owner thread once {@code delayMs} have passed; the handle cancels it. */
    Cancellable schedule(long delayMs, Runnable task);

    /** Runs {@code task} on the owner thread after the current event (used for completions arriving elsewhere). */
    void execute(Runnable task);

    /** A scheduled task that can be withdrawn. */
    @FunctionalInterface
    interface Cancellable {
        /** Withdraws the task; no effect once it ran. */
        void cancel();
    }
}
