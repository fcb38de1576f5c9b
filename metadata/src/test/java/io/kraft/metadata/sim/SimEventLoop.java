package io.kraft.metadata.sim;

import io.kraft.metadata.loop.EventLoop;
import java.util.function.LongSupplier;

/**
 * A deterministic {@link EventLoop}: its events run from the {@link SimScheduler}, in the order they were queued,
 * each after a small random delay (a thread being scheduled, or a message crossing the network when the loop stands
 * for a node's Raft thread). A crashed loop drops everything, as a killed process does.
 */
final class SimEventLoop implements EventLoop {
    private final String name;
    private final SimScheduler scheduler;
    private final LongSupplier maxDelayMs;
    private long lastQueuedMs;
    private boolean running;
    private boolean closed;
    private boolean crashed;

    /** @param maxDelayMs the longest an event waits before it runs now (0: at once, after what is queued) */
    SimEventLoop(String name, SimScheduler scheduler, LongSupplier maxDelayMs) {
        this.name = name;
        this.scheduler = scheduler;
        this.maxDelayMs = maxDelayMs;
    }

    @Override
    public boolean execute(String eventName, Runnable event) {
        if (closed || crashed) {
            return false;
        }
        // Never before an event queued earlier: the loop is FIFO whatever the delays.
        long atMs = Math.max(scheduler.nowMs() + scheduler.delayMs(0, maxDelayMs.getAsLong()), lastQueuedMs);
        lastQueuedMs = atMs;
        scheduler.at(atMs, name + ": " + eventName, () -> run(event));
        return true;
    }

    @Override
    public Scheduled schedule(String eventName, long deadlineMs, Runnable event) {
        boolean[] cancelled = new boolean[1];
        if (!closed && !crashed) {
            scheduler.at(deadlineMs, name + ": " + eventName, () -> {
                if (!cancelled[0]) {
                    run(event);
                }
            });
        }
        return () -> cancelled[0] = true;
    }

    private void run(Runnable event) {
        if (crashed) {
            return;
        }
        running = true;
        try {
            event.run();
        } finally {
            running = false;
        }
    }

    @Override
    public boolean inLoop() {
        return running;
    }

    /** Drops every queued and future event: the process is gone. */
    void crash() {
        crashed = true;
    }

    @Override
    public void close() {
        closed = true;
    }
}
