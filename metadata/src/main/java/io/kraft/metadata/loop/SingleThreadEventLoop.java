package io.kraft.metadata.loop;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** An {@link EventLoop} on one daemon thread of its own, timed by the system's monotonic clock. */
public final class SingleThreadEventLoop implements EventLoop {
    private static final Logger LOG = LoggerFactory.getLogger(SingleThreadEventLoop.class);
    /** How long {@link #close()} lets queued events finish. */
    private static final long CLOSE_WAIT_MS = 10_000;

    private final String threadName;
    private final Time time;
    private final ScheduledExecutorService executor;
    private volatile Thread thread;

    /** @param threadName the thread's name, e.g. {@code quorum-controller-1} */
    public SingleThreadEventLoop(String threadName) {
        this(threadName, Time.SYSTEM);
    }

    SingleThreadEventLoop(String threadName, Time time) {
        this.threadName = threadName;
        this.time = time;
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            thread = t;
            return t;
        });
        // Closing runs what is queued, not timers that are not due: a snapshot check may be an hour away.
        pool.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        pool.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        pool.setRemoveOnCancelPolicy(true);
        this.executor = pool;
    }

    @Override
    public boolean execute(String name, Runnable event) {
        try {
            executor.execute(() -> run(name, event));
            return true;
        } catch (RejectedExecutionException closed) {
            return false;
        }
    }

    @Override
    public Scheduled schedule(String name, long deadlineMs, Runnable event) {
        long delayMs = Math.max(0, deadlineMs - time.monotonicMs());
        try {
            ScheduledFuture<?> future = executor.schedule(() -> run(name, event), delayMs, TimeUnit.MILLISECONDS);
            return () -> future.cancel(false);
        } catch (RejectedExecutionException closed) {
            return () -> { };
        }
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    // An event that throws must not kill the loop silently: the owner handles its own errors, this is the last net.
    private void run(String name, Runnable event) {
        try {
            event.run();
        } catch (RuntimeException e) {
            LOG.error("Event {} on {} failed", name, threadName, e);
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!inLoop() && !executor.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("Event loop {} did not finish its queued events within {} ms", threadName, CLOSE_WAIT_MS);
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
