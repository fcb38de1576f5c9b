package io.kraft.broker.replica;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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

    /** One scheduled task. */
    private final class Deadline implements Timeout, Runnable {
        private final TimerTask task;
        /** Set right after scheduling, before the Timeout is returned to anyone who could cancel it. */
        private volatile ScheduledFuture<?> future;
        private volatile boolean expired;

        Deadline(TimerTask task) {
            this.task = task;
        }

        @Override
        public void run() {
            expired = true;
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
            return expired;
        }

        @Override
        public boolean isCancelled() {
            return future.isCancelled();
        }

        @Override
        public boolean cancel() {
            return future.cancel(false);
        }
    }
}
