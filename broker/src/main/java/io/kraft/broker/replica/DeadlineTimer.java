package io.kraft.broker.replica;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The purgatories' deadlines on one thread that sleeps until the next deadline, not a wheel ticking every few
 * milliseconds: an idle broker's timer costs no CPU, as Kafka's delay-queue timer. A cancelled deadline leaves the
 * queue at once, so operations completed early (most acks=all produces and fetches) hold nothing until expiry.
 *
 * <p>Deadlines at least {@link #COALESCE_FROM_MS} away share one scheduled task per {@link #SLOT_MS} slot and may run
 * up to a slot late. Without that, a long poll registered after the earlier ones completed (a follower's next fetch
 * once an append answered its last) is the queue's new head and wakes the timer thread only for it to sleep again:
 * one wake-up per request on a lightly loaded broker. An empty slot stays scheduled, so the queue keeps earlier heads;
 * that costs at most one wake-up per slot.
 */
final class DeadlineTimer implements Timer {
    private static final Logger LOG = LoggerFactory.getLogger(DeadlineTimer.class);

    /** The width of a slot of coalesced deadlines: how late such a deadline may run. */
    static final long SLOT_MS = 10;
    /** Shorter deadlines keep a task of their own, so that they run on time. */
    static final long COALESCE_FROM_MS = 50;
    private static final long SLOT_NANOS = TimeUnit.MILLISECONDS.toNanos(SLOT_MS);
    private static final long COALESCE_FROM_NANOS = TimeUnit.MILLISECONDS.toNanos(COALESCE_FROM_MS);

    private final ScheduledThreadPoolExecutor executor;
    /** Slots not yet run, by the index of their end ({@link System#nanoTime()} / {@link #SLOT_NANOS}). */
    private final ConcurrentHashMap<Long, Slot> slots = new ConcurrentHashMap<>();

    DeadlineTimer(String threadName) {
        executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, threadName);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        Deadline deadline = new Deadline(task);
        long delayNanos = Math.max(0, unit.toNanos(delay));
        if (delayNanos >= COALESCE_FROM_NANOS) {
            long due = System.nanoTime() + delayNanos;
            // The first slot ending at or after the deadline (nanoTime may be negative: floorDiv rounds down).
            long index = Math.floorDiv(due - 1, SLOT_NANOS) + 1;
            Slot slot = slots.computeIfAbsent(index, Slot::new);
            if (slot.add(deadline)) {
                return deadline;
            }
            // That slot ran between the lookup and the add: its end, so the deadline, is past.
            delayNanos = Math.max(0, due - System.nanoTime());
        }
        deadline.future = executor.schedule(deadline, delayNanos, TimeUnit.NANOSECONDS);
        return deadline;
    }

    /** How many tasks the timer thread has scheduled: deadlines of their own and slots. */
    int scheduledTasks() {
        return executor.getQueue().size();
    }

    /**
     * Stops the thread; deadlines that had not expired never will. Returns none of them: the purgatories complete
     * their waiting operations themselves before the timer stops.
     */
    @Override
    public Set<Timeout> stop() {
        executor.shutdownNow();
        slots.clear();
        return Set.of();
    }

    /** The coalesced deadlines of one slot, run together by one scheduled task at the slot's end. */
    private final class Slot implements Runnable {
        private final long index;
        /** Guarded by this; in the order they were added. */
        private final Set<Deadline> pending = new LinkedHashSet<>();
        /** Guarded by this: once run, a slot takes no more deadlines. */
        private boolean ran;

        Slot(long index) {
            this.index = index;
            long endNanos = index * SLOT_NANOS;
            executor.schedule(this, Math.max(0, endNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        }

        synchronized boolean add(Deadline deadline) {
            if (ran) {
                return false;
            }
            deadline.slot = this;
            pending.add(deadline);
            return true;
        }

        synchronized void remove(Deadline deadline) {
            pending.remove(deadline);
        }

        @Override
        public void run() {
            slots.remove(index, this);
            List<Deadline> due;
            synchronized (this) {
                ran = true;
                due = new ArrayList<>(pending);
                pending.clear();
            }
            for (Deadline deadline : due) {
                deadline.run();
            }
        }
    }

    /**
     * One deadline. Expiry and cancellation race for the state: whichever moves it from pending first wins, so
     * a deadline whose task has started cannot be cancelled, and a cancelled one never runs.
     */
    private final class Deadline implements Timeout, Runnable {
        private static final int PENDING = 0;
        private static final int EXPIRED = 1;
        private static final int CANCELLED = 2;

        private final TimerTask task;
        private final AtomicInteger state = new AtomicInteger(PENDING);
        /** Its own scheduled task, set right after scheduling, before the Timeout is returned to anyone. */
        private volatile ScheduledFuture<?> future;
        /** Or the slot it shares, set before the Timeout is returned. */
        private volatile Slot slot;

        Deadline(TimerTask task) {
            this.task = task;
        }

        @Override
        public void run() {
            if (!state.compareAndSet(PENDING, EXPIRED)) {
                return;
            }
            try {
                task.run(this);
            } catch (Throwable t) {
                LOG.warn("A purgatory deadline failed: {}", t.toString());
            }
        }

        @Override
        public Timer timer() {
            return DeadlineTimer.this;
        }

        @Override
        public TimerTask task() {
            return task;
        }

        @Override
        public boolean isExpired() {
            return state.get() == EXPIRED;
        }

        @Override
        public boolean isCancelled() {
            return state.get() == CANCELLED;
        }

        @Override
        public boolean cancel() {
            if (!state.compareAndSet(PENDING, CANCELLED)) {
                return false;
            }
            Slot shared = slot;
            if (shared != null) {
                shared.remove(this); // leaves its slot at once; the slot's own task stays
            } else {
                future.cancel(false); // leaves the executor's queue at once (remove-on-cancel)
            }
            return true;
        }
    }
}
