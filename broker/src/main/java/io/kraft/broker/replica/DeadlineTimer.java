package io.kraft.broker.replica;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.Set;
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
 */
final class DeadlineTimer implements Timer {
    private static final Logger LOG = LoggerFactory.getLogger(DeadlineTimer.class);

    private final ScheduledThreadPoolExecutor executor;

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
        deadline.future = executor.schedule(deadline, Math.max(0, delay), unit);
        return deadline;
    }

    /**
     * Stops the thread; deadlines that had not expired never will. Returns none of them: the purgatories complete
     * their waiting operations themselves before the timer stops.
     */
    @Override
    public Set<Timeout> stop() {
        executor.shutdownNow();
        return Set.of();
    }

    /**
     * One scheduled task. Expiry and cancellation race for the state: whichever moves it from pending first wins, so
     * a deadline whose task has started cannot be cancelled, and a cancelled one never runs.
     */
    private final class Deadline implements Timeout, Runnable {
        private static final int PENDING = 0;
        private static final int EXPIRED = 1;
        private static final int CANCELLED = 2;

        private final TimerTask task;
        private final AtomicInteger state = new AtomicInteger(PENDING);
        /** Set right after scheduling, before the Timeout is returned to anyone who could cancel it. */
        private volatile ScheduledFuture<?> future;

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
            future.cancel(false); // leaves the executor's queue at once (remove-on-cancel)
            return true;
        }
    }
}
