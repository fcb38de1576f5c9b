package io.kraft.broker.group;

import java.util.ArrayDeque;
import java.util.PriorityQueue;

/**
 * A {@link CoordinatorTimer} for tests: time moves only with {@link #advance}; queued events and due timers run
 * on the calling thread, in order, so every rebalance and expiry is deterministic.
 */
final class ManualTimer implements CoordinatorTimer {
    private final ArrayDeque<Runnable> queued = new ArrayDeque<>();
    private final PriorityQueue<Scheduled> timers = new PriorityQueue<>();
    private long nowMs;
    private long sequence;

    ManualTimer(long startMs) {
        this.nowMs = startMs;
    }

    @Override
    public long nowMs() {
        return nowMs;
    }

    @Override
    public Cancellable schedule(long delayMs, Runnable task) {
        Scheduled scheduled = new Scheduled(nowMs + Math.max(0, delayMs), sequence++, task);
        timers.add(scheduled);
        return () -> scheduled.cancelled = true;
    }

    @Override
    public void execute(Runnable task) {
        queued.add(task);
    }

    /** Runs queued events and timers due now, until none is left. */
    void runPending() {
        advance(0);
    }

    /** Moves time forward, running each due timer at its deadline and queued events after every step. */
    void advance(long ms) {
        long target = nowMs + ms;
        drainQueue();
        while (true) {
            Scheduled next = timers.peek();
            if (next == null || next.deadlineMs > target) {
                break;
            }
            timers.poll();
            if (next.cancelled) {
                continue;
            }
            nowMs = Math.max(nowMs, next.deadlineMs);
            next.task.run();
            drainQueue();
        }
        nowMs = target;
        drainQueue();
    }

    private void drainQueue() {
        Runnable task;
        while ((task = queued.poll()) != null) {
            task.run();
        }
    }

    private static final class Scheduled implements Comparable<Scheduled> {
        final long deadlineMs;
        final long sequence;
        final Runnable task;
        boolean cancelled;

        Scheduled(long deadlineMs, long sequence, Runnable task) {
            this.deadlineMs = deadlineMs;
            this.sequence = sequence;
            this.task = task;
        }

        @Override
        public int compareTo(Scheduled other) {
            int byDeadline = Long.compare(deadlineMs, other.deadlineMs);
            return byDeadline != 0 ? byDeadline : Long.compare(sequence, other.sequence);
        }
    }
}
