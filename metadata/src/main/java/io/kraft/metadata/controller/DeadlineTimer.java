package io.kraft.metadata.controller;

import io.kraft.metadata.loop.EventLoop;

/**
 * One event of a loop due at a deadline that moves: setting the same deadline again keeps the scheduled event,
 * another deadline replaces it, and {@link Long#MAX_VALUE} or {@link #cancel()} removes it. Used on the loop's thread
 * only.
 */
final class DeadlineTimer {
    private final EventLoop loop;
    private final String name;
    private final Runnable action;
    private EventLoop.Scheduled scheduled;
    private long deadline = Long.MAX_VALUE;

    DeadlineTimer(EventLoop loop, String name, Runnable action) {
        this.loop = loop;
        this.name = name;
        this.action = action;
    }

    /** Runs the action at {@code deadlineMs} of the loop's clock. */
    void set(long deadlineMs) {
        set(deadlineMs, deadlineMs);
    }

    /**
     * Runs the action at {@code loopDeadlineMs} of the loop's clock for a deadline kept in another clock as
     * {@code deadline} (a wall-clock time), so that the same deadline set again does not move the event.
     */
    void set(long deadline, long loopDeadlineMs) {
        if (deadline == this.deadline && scheduled != null) {
            return;
        }
        cancel();
        this.deadline = deadline;
        if (deadline != Long.MAX_VALUE) {
            scheduled = loop.schedule(name, loopDeadlineMs, this::fire);
        }
    }

    void cancel() {
        if (scheduled != null) {
            scheduled.cancel();
            scheduled = null;
        }
        deadline = Long.MAX_VALUE;
    }

    private void fire() {
        scheduled = null;
        deadline = Long.MAX_VALUE;
        action.run();
    }
}
